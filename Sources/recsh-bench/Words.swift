import RecordKit

/// Word lists for generated tasks: plain English for most words, and enough other
/// scripts to keep the non-ASCII paths of the reader and writer busy.
enum Words {
  static func pick(_ list: [String], _ random: inout SplitMix64) -> String {
    list[random.below(list.count)]
  }

  static let common = """
    call email write review update fix plan buy book send check clean prepare order cancel \
    schedule finish draft read renew pay file submit organize test deploy refactor migrate \
    invoice report meeting budget taxes dentist garden kitchen roof car insurance passport \
    ticket flight hotel birthday present dinner lunch groceries laundry backup server \
    database release notes slides proposal contract landlord plumber doctor school teacher \
    library bank account password router printer laptop phone charger battery window door \
    paint fence bike tires oil filter coffee beans milk bread eggs cheese apples lemons \
    with for about before after the a an and or to from on at in by next this last every \
    week month quarter year today tomorrow monday friday morning evening urgent quick \
    small big new old second final weekly monthly yearly shared team family project client \
    customer vendor supplier partner manager colleague friend neighbour mother father \
    sister brother uncle aunt cousin notes ideas list plan goals steps summary agenda
    """.split(separator: " ").map(String.init)

  static let international = [
    "café", "naïve", "résumé", "Zürich", "São Paulo", "Kraków", "smörgåsbord", "déjà vu",
    "日本", "東京", "会議", "買い物", "Москва", "встреча", "Αθήνα", "שלום", "مرحبا",
    "🚀", "✅", "📅", "🎉", "☕", "👍🏽", "🇯🇵", "crème brûlée", "jalapeño", "façade",
  ]

  static let tags = [
    "home", "work", "errand", "finance", "health", "family", "travel", "urgent", "someday",
    "waiting", "reading", "garden", "car", "school", "café", "日本", "⭐",
  ]

  static let people = [
    "Ana", "Bo", "Chloé", "Dmitri", "Eun-ji", "François", "Gül", "Hiro", "Ingrid", "José",
    "Kwame", "Léa", "Mateo", "Nuño", "Oğuz", "Priya", "Renée", "Søren", "Tomás", "佐藤",
  ]
}
