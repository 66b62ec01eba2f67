import RecordShell

print("recsh \(recshVersion)")
