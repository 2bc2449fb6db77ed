package payload

// The word lists of the /filter records. Names and languages mix many
// cultures, with non-ASCII letters, so that a server's UTF-8 handling is part
// of the work, as it is with real user records.

var firstNames = []string{
	"Adeel", "Aiko", "Alejandro", "Amara", "Anders", "Ananya", "Astrid", "Bartosz",
	"Beatriz", "Chidi", "Chloé", "Dae-jung", "Dmitri", "Elif", "Emeka", "Emma",
	"Fatima", "François", "Freya", "Giulia", "Hamid", "Hana", "Ines", "Ivan",
	"Jakub", "Jamal", "João", "Kai", "Kamala", "Keanu", "Lars", "Leila",
	"Liam", "Lucía", "Mai", "Malik", "Mateo", "Mei", "Miguel", "Mohammed",
	"Nadia", "Nikolai", "Noah", "Olga", "Omar", "Pedro", "Priya", "Rafael",
	"Rania", "Ravi", "Sakura", "Samira", "Sebastián", "Siddharth", "Sofia", "Søren",
	"Tariq", "Thabo", "Tomasz", "Wei", "Yara", "Yusuf", "Zanele", "Zoë",
}

var lastNames = []string{
	"Abara", "Andersen", "Banerjee", "Bianchi", "Chen", "Costa", "Dubois", "Eriksson",
	"Fernández", "Fischer", "García", "Gonçalves", "Haddad", "Hansen", "Ivanova", "Jansen",
	"Kim", "Kowalski", "Kumar", "Larsen", "Lefèvre", "Mahlangu", "Martins", "Mensah",
	"Moreau", "Müller", "Nakamura", "Nguyen", "Novák", "Okafor", "Okonkwo", "Oliveira",
	"Papadopoulos", "Park", "Petrov", "Popescu", "Rahman", "Rossi", "Sato", "Schmidt",
	"Shevchenko", "Silva", "Solangi", "Suzuki", "Svensson", "Tanaka", "Torres", "Van Dijk",
	"Wang", "Watanabe", "Wójcik", "Yamamoto", "Yılmaz", "Zhang", "Ødegaard", "Åberg",
}

var languages = []string{
	"Afrikaans", "Amharic", "Arabic", "Bengali", "Catalan", "Czech", "Danish", "Dutch",
	"English", "Estonian", "Finnish", "French", "Galician", "German", "Greek", "Gujarati",
	"Hausa", "Hebrew", "Hindi", "Hungarian", "Icelandic", "Igbo", "Indonesian", "Italian",
	"Japanese", "Kannada", "Kazakh", "Korean", "Maltese", "Mandarin", "Marathi", "Norwegian",
	"Persian", "Polish", "Portuguese", "Punjabi", "Romanian", "Russian", "Sindhi", "Spanish",
	"Swahili", "Swedish", "Tamil", "Telugu", "Thai", "Turkish", "Ukrainian", "Urdu",
	"Uyghur", "Vietnamese", "Welsh", "Xhosa", "Yoruba", "Zulu",
}

// loremWords are at most 12 bytes each, all lower-case ASCII (bio relies on both).
var loremWords = []string{
	"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit",
	"sed", "do", "eiusmod", "tempor", "incididunt", "ut", "labore", "et",
	"dolore", "magna", "aliqua", "enim", "ad", "minim", "veniam", "quis",
	"nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "ex", "ea",
	"commodo", "consequat", "duis", "aute", "irure", "in", "rhoncus", "voluptate",
	"velit", "esse", "cillum", "fugiat", "nulla", "pariatur", "excepteur", "sint",
	"occaecat", "cupidatat", "non", "proident", "sunt", "culpa", "qui", "officia",
	"deserunt", "mollit", "anim", "id", "est", "laborum", "donec", "lobortis",
	"eleifend", "condimentum", "cras", "vitae", "sapien", "vel", "mauris", "mattis",
	"fringilla", "integer", "posuere", "nunc", "vestibulum", "pharetra", "quam", "tellus",
}
