"""The demo property's words in Italian, German and French: its name, type, headline, summary,
description, house rules, payment note, cleaning-fee label, amenities, photos and discounts.
booking/demo.py writes them into the translated fields (django-modeltranslation) beside the English
ones, only where the owner has not edited or translated them."""

PROPERTY = {
    "it": {
        "name": "Attico Santa Croce — Attico a Firenze",
        "property_type": "Attico",
        "headline": "Un attico con tre camere e una terrazza sul tetto di fronte al Duomo, per un massimo di 7 ospiti.",
        "summary": (
            "Attico per un massimo di 7 ospiti nel centro storico di Firenze, vicino a Santa Croce: tre camere, due bagni, "
            "una terrazza sul tetto di 40 m² con vista sulla cupola del Brunelleschi, ascensore, aria condizionata e Wi-Fi veloce."
        ),
        "description": """\
Attico Santa Croce è un attico luminoso al quinto e sesto piano di un palazzo ottocentesco restaurato, a due strade dalla Basilica di Santa Croce e a dieci minuti a piedi dal Duomo.

Il soggiorno si apre su una terrazza di 40 m² con pergolato, un tavolo per otto e una vista sui tetti di cotto fino alla cupola del Brunelleschi e al campanile di Giotto. Le serate quassù sono il motivo per cui gli ospiti tornano.

Tre camere per sette persone: una camera con letto king-size e bagno privato, una camera con due letti singoli che diventano un matrimoniale e una camera soppalcata con letto matrimoniale e un divano letto singolo. Due bagni completi, una cucina attrezzata con lavastoviglie e macchina per l’espresso, Wi-Fi in fibra veloce e aria condizionata in ogni stanza rendono facili anche i soggiorni lunghi.

L’ascensore arriva al quinto piano; una rampa di scale interna porta al livello della terrazza.""",
        "house_rules": """\
Vietato fumare in casa (in terrazza si può, ci sono i posacenere).
Niente feste né eventi; silenzio dalle 22:00 alle 8:00: i vicini sono famiglie fiorentine.
Gli animali sono benvenuti su richiesta.
Per favore fai la raccolta differenziata: i bidoni e il calendario dei ritiri sono in cucina.
Porta passaporto o documento d’identità: la legge italiana ci obbliga a registrare ogni ospite all’arrivo.""",
        "cleaning_fee_label": "Pulizia finale, biancheria e asciugamani",
    },
    "de": {
        "name": "Attico Santa Croce — Penthouse in Florenz",
        "property_type": "Penthouse-Wohnung",
        "headline": "Ein Penthouse mit drei Schlafzimmern und Dachterrasse mit Blick auf den Dom, für bis zu 7 Gäste.",
        "summary": (
            "Penthouse für bis zu 7 Gäste in der Altstadt von Florenz, nahe Santa Croce: drei Schlafzimmer, zwei Bäder, "
            "eine 40 m² große Dachterrasse mit Blick auf Brunelleschis Kuppel, Aufzug, Klimaanlage und schnelles WLAN."
        ),
        "description": """\
Attico Santa Croce ist ein lichtdurchflutetes Penthouse im fünften und sechsten Stock eines restaurierten Palazzo aus dem 19. Jahrhundert, zwei Straßen von der Basilika Santa Croce und zehn Gehminuten vom Dom entfernt.

Das Wohnzimmer öffnet sich auf eine 40 m² große Dachterrasse mit Pergola, einem Tisch für acht Personen und einem Blick über die Terrakottadächer bis zu Brunelleschis Kuppel und Giottos Glockenturm. Die Abende hier oben sind der Grund, warum Gäste wiederkommen.

Drei Schlafzimmer für sieben Personen: ein Zimmer mit Kingsize-Bett und eigenem Bad, ein Zweibettzimmer, das sich in ein Doppelzimmer verwandeln lässt, und ein Zimmer im Zwischengeschoss mit Doppelbett und einem Einzel-Tagesbett. Zwei vollständige Bäder, eine voll ausgestattete Küche mit Geschirrspüler und Espressomaschine, schnelles Glasfaser-WLAN und Klimaanlage in jedem Zimmer machen auch lange Aufenthalte bequem.

Ein Aufzug fährt bis in den fünften Stock; eine Innentreppe führt hinauf zur Terrassenebene.""",
        "house_rules": """\
Rauchen in der Wohnung ist nicht erlaubt (auf der Terrasse schon, Aschenbecher sind vorhanden).
Keine Partys oder Veranstaltungen; Ruhezeit von 22:00 bis 8:00 Uhr – die Nachbarn sind Florentiner Familien.
Haustiere sind auf Anfrage willkommen.
Bitte trennen Sie den Müll: Die Behälter und ein Abholkalender sind in der Küche.
Bringen Sie Ihren Reisepass oder Ausweis mit: Das italienische Gesetz verpflichtet uns, jeden Gast bei der Ankunft zu melden.""",
        "cleaning_fee_label": "Endreinigung, Bettwäsche und Handtücher",
    },
    "fr": {
        "name": "Attico Santa Croce — Penthouse à Florence",
        "property_type": "Appartement-terrasse",
        "headline": "Un penthouse de trois chambres avec un toit-terrasse face au Duomo, pour 7 personnes au plus.",
        "summary": (
            "Penthouse pour 7 personnes au plus dans le centre historique de Florence, près de Santa Croce : trois chambres, "
            "deux salles de bains, un toit-terrasse de 40 m² avec vue sur la coupole de Brunelleschi, ascenseur, climatisation et Wi-Fi rapide."
        ),
        "description": """\
Attico Santa Croce est un penthouse lumineux aux cinquième et sixième étages d’un palais restauré du XIXe siècle, à deux rues de la basilique Santa Croce et à dix minutes à pied du Duomo.

Le séjour s’ouvre sur un toit-terrasse de 40 m² avec une pergola, une table pour huit et une vue sur les toits de terre cuite jusqu’à la coupole de Brunelleschi et au campanile de Giotto. Les soirées là-haut sont la raison pour laquelle les hôtes reviennent.

Trois chambres pour sept personnes : une chambre avec lit king-size et salle de bains privée, une chambre à deux lits transformable en chambre double, et une chambre en mezzanine avec un lit double et un lit de repos simple. Deux salles de bains complètes, une cuisine entièrement équipée avec lave-vaisselle et machine à expresso, le Wi-Fi par fibre rapide et la climatisation dans chaque pièce rendent les longs séjours faciles.

Un ascenseur monte jusqu’au cinquième étage ; un escalier intérieur mène au niveau de la terrasse.""",
        "house_rules": """\
Il est interdit de fumer dans l’appartement (sur la terrasse, c’est permis, des cendriers sont fournis).
Ni fêtes ni événements ; calme de 22 h à 8 h : les voisins sont des familles florentines.
Les animaux sont les bienvenus sur demande.
Merci de trier les déchets : les poubelles et le calendrier des collectes sont dans la cuisine.
Apportez votre passeport ou votre carte d’identité : la loi italienne nous oblige à déclarer chaque hôte à son arrivée.""",
        "cleaning_fee_label": "Ménage final, linge de lit et serviettes",
    },
}

# By the English name or category (booking/demo.py AMENITIES): Italian, German, French.
AMENITY_WORDS = {
    "Roof terrace with Duomo view": ("Terrazza sul tetto con vista sul Duomo", "Dachterrasse mit Domblick", "Toit-terrasse avec vue sur le Duomo"),
    "Outdoor dining for 8": ("Pranzo all’aperto per 8", "Essplatz im Freien für 8", "Repas en plein air pour 8"),
    "Lift to the 5th floor": ("Ascensore fino al 5° piano", "Aufzug bis in den 5. Stock", "Ascenseur jusqu’au 5e étage"),
    "Air conditioning in every room": ("Aria condizionata in ogni stanza", "Klimaanlage in jedem Zimmer", "Climatisation dans chaque pièce"),
    "Fibre Wi-Fi (300 Mbit/s)": ("Wi-Fi in fibra (300 Mbit/s)", "Glasfaser-WLAN (300 Mbit/s)", "Wi-Fi par fibre (300 Mbit/s)"),
    "Heating": ("Riscaldamento", "Heizung", "Chauffage"),
    "Fully equipped kitchen": ("Cucina completamente attrezzata", "Voll ausgestattete Küche", "Cuisine entièrement équipée"),
    "Dishwasher": ("Lavastoviglie", "Geschirrspüler", "Lave-vaisselle"),
    "Espresso machine": ("Macchina per l’espresso", "Espressomaschine", "Machine à expresso"),
    "Washing machine": ("Lavatrice", "Waschmaschine", "Lave-linge"),
    "Tumble dryer": ("Asciugatrice", "Wäschetrockner", "Sèche-linge"),
    "Linen and towels": ("Biancheria e asciugamani", "Bettwäsche und Handtücher", "Linge de lit et serviettes"),
    "Hair dryer": ("Asciugacapelli", "Haartrockner", "Sèche-cheveux"),
    "Smart TV with Netflix": ("Smart TV con Netflix", "Smart-TV mit Netflix", "Smart TV avec Netflix"),
    "Dedicated workspace": ("Spazio di lavoro dedicato", "Eigener Arbeitsplatz", "Espace de travail dédié"),
    "Cot and high chair on request": ("Culla e seggiolone su richiesta", "Babybett und Hochstuhl auf Anfrage", "Lit bébé et chaise haute sur demande"),
    # Categories
    "Outdoor": ("Esterno", "Draußen", "Extérieur"),
    "Access": ("Accesso", "Zugang", "Accès"),
    "Comfort": ("Comfort", "Komfort", "Confort"),
    "Kitchen": ("Cucina", "Küche", "Cuisine"),
    "Laundry": ("Lavanderia", "Wäsche", "Buanderie"),
    "Bathroom": ("Bagno", "Bad", "Salle de bains"),
    "Entertainment": ("Intrattenimento", "Unterhaltung", "Divertissement"),
    "Work": ("Lavoro", "Arbeiten", "Travail"),
    "Family": ("Famiglia", "Familie", "Famille"),
}

# By the photo's static path: (alt text, caption) in Italian, German, French.
PHOTOS = {
    "img/photos/terrace.svg": (
        ("La terrazza al tramonto, con la cupola del Duomo dietro il pergolato", "La terrazza"),
        ("Die Dachterrasse bei Sonnenuntergang, mit der Domkuppel hinter der Pergola", "Die Terrasse"),
        ("Le toit-terrasse au coucher du soleil, avec la coupole du Duomo derrière la pergola", "La terrasse"),
    ),
    "img/photos/living-room.svg": (
        ("Il soggiorno con divano, librerie e portefinestre sulla terrazza", "Soggiorno"),
        ("Das Wohnzimmer mit Sofa, Bücherregalen und Fenstertüren zur Terrasse", "Wohnzimmer"),
        ("Le séjour avec un canapé, des bibliothèques et des portes-fenêtres sur la terrasse", "Séjour"),
    ),
    "img/photos/bedroom.svg": (
        ("La camera con letto king-size e travi a vista", "Camera principale"),
        ("Das Schlafzimmer mit Kingsize-Bett und sichtbaren Holzbalken", "Hauptschlafzimmer"),
        ("La chambre avec lit king-size et poutres apparentes", "Chambre principale"),
    ),
    "img/photos/kitchen.svg": (
        ("La cucina con piano in marmo e macchina per l’espresso", "Cucina"),
        ("Die Küche mit Marmorarbeitsplatte und Espressomaschine", "Küche"),
        ("La cuisine avec un plan de travail en marbre et une machine à expresso", "Cuisine"),
    ),
}

# By the English label: Italian, German, French.
DISCOUNTS = {
    "Weekly discount": ("Sconto settimanale", "Wochenrabatt", "Réduction à la semaine"),
    "Monthly discount": ("Sconto mensile", "Monatsrabatt", "Réduction au mois"),
}

SEASONS = {
    "Low season": ("Bassa stagione", "Nebensaison", "Basse saison"),
    "Spring and autumn high season": ("Alta stagione di primavera e d’autunno", "Hochsaison im Frühling und Herbst", "Haute saison de printemps et d’automne"),
    "Summer": ("Estate", "Sommer", "Été"),
    "Autumn high season": ("Alta stagione d’autunno", "Hochsaison im Herbst", "Haute saison d’automne"),
    "Christmas and New Year": ("Natale e Capodanno", "Weihnachten und Neujahr", "Noël et Nouvel An"),
}

# The demo's emergency information (Florence's short-let rules: emergency procedures, the 24-hour
# contact, waste sorting, conduct), English then Italian, German, French.
EMERGENCY_INFO = {
    "en": """\
Emergencies: call 112 (police, fire brigade, ambulance). The fire extinguisher is in the kitchen cupboard by the door, the gas tap under the hob: in a fire or if you smell gas, close the tap, open the windows, leave by the stairs (never the lift) and call 112.

24-hour contact: Giulia, +39 055 000 0000 (phone or WhatsApp, day and night).

Waste sorting: paper, plastic and metal, glass and organic waste go in the coloured bins in the courtyard (blue, yellow, green, brown); everything else in the grey one. Glass is collected from the bell bins in Piazza dei Ciompi.

House conduct: quiet between 10 pm and 8 am, no parties, no smoking inside. Please close the street door behind you.""",
    "it": """\
Emergenze: chiamate il 112 (polizia, vigili del fuoco, ambulanza). L'estintore è nel mobile della cucina accanto alla porta, il rubinetto del gas sotto il piano cottura: in caso di incendio o di odore di gas chiudete il rubinetto, aprite le finestre, uscite dalle scale (mai l'ascensore) e chiamate il 112.

Contatto 24 ore su 24: Giulia, +39 055 000 0000 (telefono o WhatsApp, giorno e notte).

Raccolta differenziata: carta, plastica e metalli, vetro e organico vanno nei bidoni colorati in cortile (blu, giallo, verde, marrone); il resto in quello grigio. Il vetro si conferisce nelle campane di Piazza dei Ciompi.

Regole della casa: silenzio dalle 22 alle 8, niente feste, vietato fumare all'interno. Chiudete il portone dietro di voi.""",
    "de": """\
Notfälle: Rufen Sie 112 an (Polizei, Feuerwehr, Rettungsdienst). Der Feuerlöscher steht im Küchenschrank neben der Tür, der Gashahn unter dem Kochfeld: Bei Feuer oder Gasgeruch den Hahn schließen, die Fenster öffnen, über die Treppe (nie den Aufzug) hinausgehen und 112 anrufen.

Kontakt rund um die Uhr: Giulia, +39 055 000 0000 (Telefon oder WhatsApp, Tag und Nacht).

Mülltrennung: Papier, Plastik und Metall, Glas und Bioabfall kommen in die farbigen Tonnen im Hof (blau, gelb, grün, braun), alles andere in die graue. Glas gehört in die Glockencontainer an der Piazza dei Ciompi.

Hausordnung: Ruhe von 22 bis 8 Uhr, keine Partys, Rauchen nur draußen. Bitte schließen Sie die Haustür hinter sich.""",
    "fr": """\
Urgences : appelez le 112 (police, pompiers, ambulance). L'extincteur est dans le placard de la cuisine près de la porte, le robinet de gaz sous la plaque : en cas d'incendie ou d'odeur de gaz, fermez le robinet, ouvrez les fenêtres, sortez par l'escalier (jamais l'ascenseur) et appelez le 112.

Contact 24 h sur 24 : Giulia, +39 055 000 0000 (téléphone ou WhatsApp, jour et nuit).

Tri des déchets : papier, plastique et métal, verre et déchets organiques vont dans les bacs de couleur de la cour (bleu, jaune, vert, marron) ; le reste dans le gris. Le verre se dépose dans les conteneurs de la Piazza dei Ciompi.

Règles de la maison : silence de 22 h à 8 h, pas de fêtes, ne pas fumer à l'intérieur. Merci de refermer la porte de la rue derrière vous.""",
}
