/// The shell's version, as `recsh --version` prints it.
public let recshVersion = "0.1.0"
