"""The demo website's words in Italian, German and French: every page text, every FAQ entry and every
published article (the Santa Croce guide here, the others in pages/demo_article_*.py). pages/demo.py
writes them into the translated fields (django-modeltranslation) beside the English ones; what is
left empty shows the English text.
"""

from pages.demo_article_arrival import ARRIVAL
from pages.demo_article_three_days import THREE_DAYS
from pages.models import PageKey

PAGES = {
    "it": {
        PageKey.HOME: {
            "title": "Un attico con terrazza su Firenze",
            "meta_description": "Attico con tre camere per un massimo di 7 ospiti vicino a Santa Croce, a Firenze, con terrazza sul tetto di fronte al Duomo. Prenota direttamente: disponibilità in tempo reale, prezzo completo, nessuna commissione.",
            "intro": "Tre camere, due bagni e una terrazza sul tetto con vista sulla cupola del Brunelleschi, a due strade da Santa Croce. Prenota direttamente con Giulia, che ti ospita.",
            "body": "## Una casa in centro, non una camera d’albergo\n\nAttico Santa Croce è una casa di famiglia che apriamo agli ospiti: libri veri sugli scaffali, una cucina in cui cucinerai davvero e letti che abbiamo scelto dopo averci dormito. La terrazza è il cuore della casa: un pergolato, un lungo tavolo per otto e la cupola del Duomo che riempie la vista.\n\nQui si prenota direttamente: il calendario è aggiornato in tempo reale, il prezzo è mostrato voce per voce prima di pagare e le tue domande arrivano a Giulia, non a un call center.\n",
        },
        PageKey.PROPERTY: {
            "title": "L’attico",
            "meta_description": "Dentro l’Attico Santa Croce: tre camere per sette persone, due bagni, una cucina completa e una terrazza di 40 m² con vista sul Duomo.",
        },
        PageKey.AVAILABILITY: {
            "title": "Prezzi e disponibilità",
            "meta_description": "Disponibilità in tempo reale e prezzi a notte dell’attico a Santa Croce, Firenze, con tariffe stagionali, sconti settimanali e il prezzo completo delle tue date.",
            "intro": "Tutte le notti libere con il loro prezzo. Scegli le date per vedere il totale voce per voce, tassa di soggiorno e pulizie comprese, poi prosegui con la prenotazione.",
            "body": "I prezzi si intendono per l’intero attico, non a persona. Il prezzo che vedi è quello che paghi: nessun costo di prenotazione.",
        },
        PageKey.REVIEWS: {
            "title": "Recensioni degli ospiti",
            "meta_description": "Cosa dicono gli ospiti dell’Attico Santa Croce, l’attico con vista sul Duomo a Firenze: recensioni di ospiti diretti, Airbnb e Booking.com.",
            "intro": "Recensioni di chi ha prenotato con noi direttamente o tramite le piattaforme, pubblicate così come sono state scritte.",
        },
        PageKey.LOCATION: {
            "title": "Posizione",
            "meta_description": "L’attico è in via dei Pepi, a Santa Croce, Firenze: 4 minuti dalla basilica, 12 dal Duomo. Tempi a piedi, mappa e come arrivare.",
            "intro": "A Santa Croce, il cuore vissuto del centro storico: tutto ciò per cui sei venuto a Firenze è raggiungibile a piedi.",
            "body": "![Mappa schematica del centro di Firenze: l’attico a Santa Croce, a pochi passi a est del Duomo e a nord dell’Arno](/static/img/map-santa-croce.svg)\n\n*Mappa schematica, non in scala.*\n\n## Santa Croce, la Firenze dei fiorentini\n\nL’attico è in via dei Pepi, una strada tranquilla tra la Basilica di Santa Croce e il mercato di Sant’Ambrogio. Le mattine iniziano con i banchi del mercato che si montano, i pomeriggi con i bambini che attraversano la piazza, le sere con le enoteche di via de’ Benci e via dei Macci. È centrale senza essere un museo: per strada senti parlare italiano.\n\n### A piedi da casa\n\n| Dove | A piedi |\n|---|---|\n| Basilica e piazza Santa Croce | 4 minuti |\n| Mercato di Sant’Ambrogio | 5 minuti |\n| Casa Buonarroti | 3 minuti |\n| Uffizi e Palazzo Vecchio | 10 minuti |\n| Duomo, Battistero e Campanile | 12 minuti |\n| Ponte Vecchio | 13 minuti |\n| Galleria dell’Accademia (il David) | 15 minuti |\n| Stazione di Santa Maria Novella | 25 minuti, o 10 in taxi |\n| Piazzale Michelangelo | 25 minuti, l’ultimo tratto in salita |\n\n### Come arrivare\n\nDall’aeroporto o dalla stazione il taxi impiega dieci-quindici minuti. Se arrivi in auto, non entrare nel centro storico: è una zona a traffico limitato (ZTL) controllata da telecamere e le multe arrivano mesi dopo. Ti mandiamo le indicazioni per un garage appena fuori dalla zona. La nostra [guida all’arrivo](/it/blog/arriving-in-florence) descrive ogni percorso nei dettagli.\n",
        },
        PageKey.FAQ: {
            "title": "Domande frequenti",
            "meta_description": "Risposte sull’attico a Santa Croce, Firenze: check-in, ascensore, parcheggio e ZTL, bambini, animali, tassa di soggiorno, pagamento e cancellazione.",
            "intro": "Le domande che gli ospiti ci fanno più spesso, con le risposte.",
        },
        PageKey.BOOKING_POLICIES: {
            "title": "Condizioni di prenotazione",
            "meta_description": "Cancellazione, pagamento, soggiorno minimo, costi, tassa di soggiorno, orari di check-in e regole della casa dell’attico a Santa Croce, Firenze.",
            "intro": "Tutto ciò che vale per la tua prenotazione, in parole semplici. Sono le stesse regole che il nostro sistema applica quando scegli le date.",
        },
        PageKey.BOOK: {
            "title": "Prenota il tuo soggiorno",
            "meta_description": "Scegli le date, guarda il prezzo completo voce per voce e prenota direttamente l’attico a Santa Croce, Firenze, con pagamento sicuro.",
            "intro": "Scegli check-in e check-out, guarda il prezzo completo voce per voce, poi paga in sicurezza. Nessun account e nessun dato richiesto prima.",
        },
        PageKey.CONTACT: {
            "title": "Scrivici",
            "meta_description": "Domande su date, arrivo o Firenze? Scrivi a Giulia, che ti ospita all’attico a Santa Croce.",
            "intro": "Domande su date, arrivo o quartiere? Giulia risponde di persona, di solito entro poche ore.",
            "body": "Per viaggi di gruppo, soggiorni lunghi o un’occasione speciale in terrazza, raccontaci cosa hai in mente: faremo il possibile per aiutarti.",
        },
        PageKey.THANK_YOU: {
            "title": "Grazie",
            "meta_description": "La tua prenotazione all’attico a Santa Croce, Firenze.",
        },
        PageKey.BLOG: {
            "title": "Diario",
            "meta_description": "Appunti da Firenze di chi ti ospita all’attico a Santa Croce: cosa vedere, dove mangiare e come arrivare.",
            "intro": "Appunti da Firenze di chi ti ospita: cosa vedere, dove mangiare e come arrivare senza stress.",
        },
        PageKey.PRIVACY: {
            "title": "Privacy",
            "meta_description": "Quali dati conserva l’attico a Santa Croce sugli ospiti, perché, per quanto tempo, e i tuoi diritti secondo il GDPR.",
            "intro": "Conserviamo solo ciò che serve a una prenotazione, per il tempo richiesto dalla legge, e non lo vendiamo né lo condividiamo per pubblicità.",
        },
    },
    "de": {
        PageKey.HOME: {
            "title": "Ein Penthouse mit Terrasse über Florenz",
            "meta_description": "Penthouse mit drei Schlafzimmern für bis zu 7 Gäste nahe Santa Croce in Florenz, mit Dachterrasse und Blick auf den Dom. Direkt buchen: aktuelle Verfügbarkeit, voller Preis, keine Plattformgebühren.",
            "intro": "Drei Schlafzimmer, zwei Bäder und eine Dachterrasse mit Blick auf Brunelleschis Kuppel, zwei Straßen von Santa Croce. Buchen Sie direkt bei Giulia, Ihrer Gastgeberin.",
            "body": "## Ein Zuhause im Zentrum, kein Hotelzimmer\n\nAttico Santa Croce ist ein Familienzuhause, das wir für Gäste öffnen: echte Bücher in den Regalen, eine Küche, in der Sie wirklich kochen werden, und Betten, die wir ausgesucht haben, nachdem wir selbst darin geschlafen haben. Das Herz des Hauses ist die Terrasse – eine Pergola, ein langer Tisch für acht und die Domkuppel, die den ganzen Blick füllt.\n\nHier bucht man direkt: Der Kalender ist aktuell, der Preis steht Posten für Posten da, bevor Sie bezahlen, und Ihre Fragen erreichen Giulia, kein Callcenter.\n",
        },
        PageKey.PROPERTY: {
            "title": "Das Penthouse",
            "meta_description": "Im Attico Santa Croce: drei Schlafzimmer für sieben Personen, zwei Bäder, eine voll ausgestattete Küche und eine 40 m² große Dachterrasse mit Domblick.",
        },
        PageKey.AVAILABILITY: {
            "title": "Preise und Verfügbarkeit",
            "meta_description": "Aktuelle Verfügbarkeit und Preise pro Nacht des Penthouse in Santa Croce, Florenz – mit Saisonpreisen, Wochenrabatt und dem vollen Preis für Ihre Daten.",
            "intro": "Jede freie Nacht mit ihrem Preis. Wählen Sie Ihre Daten und sehen Sie den Gesamtpreis Posten für Posten – Kurtaxe und Reinigung inklusive –, dann geht es weiter zur Buchung.",
            "body": "Die Preise gelten für das ganze Penthouse, nicht pro Person. Der Preis, den Sie hier sehen, ist der Preis, den Sie zahlen: Buchungsgebühren gibt es nicht.",
        },
        PageKey.REVIEWS: {
            "title": "Gästebewertungen",
            "meta_description": "Was Gäste über das Attico Santa Croce sagen, das Penthouse mit Domblick in Florenz: Bewertungen von Direktgästen, Airbnb und Booking.com.",
            "intro": "Bewertungen von Gästen, die direkt bei uns oder über die Plattformen gebucht haben – so veröffentlicht, wie sie geschrieben wurden.",
        },
        PageKey.LOCATION: {
            "title": "Lage",
            "meta_description": "Das Penthouse liegt in der Via dei Pepi in Santa Croce, Florenz: 4 Minuten zur Basilika, 12 zum Dom. Gehzeiten, Karte und Anreise.",
            "intro": "In Santa Croce, dem lebendigen Herzen der Altstadt: Alles, weswegen Sie nach Florenz kommen, erreichen Sie zu Fuß.",
            "body": "![Skizze der Florentiner Innenstadt: das Penthouse in Santa Croce, ein kurzes Stück östlich des Doms und nördlich des Arno](/static/img/map-santa-croce.svg)\n\n*Skizze, nicht maßstabsgetreu.*\n\n## Santa Croce – das Florenz der Florentiner\n\nDas Penthouse liegt in der Via dei Pepi, einer ruhigen Straße zwischen der Basilika Santa Croce und dem Markt Sant’Ambrogio. Morgens bauen die Marktleute ihre Stände auf, nachmittags überqueren Schulkinder die Piazza, abends füllen sich die Weinbars der Via de’ Benci und der Via dei Macci. Zentral, aber kein Museum: Auf der Straße hören Sie Italienisch.\n\n### Zu Fuß von der Haustür\n\n| Wohin | Gehzeit |\n|---|---|\n| Basilika und Piazza Santa Croce | 4 Minuten |\n| Markt Sant’Ambrogio | 5 Minuten |\n| Casa Buonarroti | 3 Minuten |\n| Uffizien und Palazzo Vecchio | 10 Minuten |\n| Dom, Baptisterium und Campanile | 12 Minuten |\n| Ponte Vecchio | 13 Minuten |\n| Galleria dell’Accademia (David) | 15 Minuten |\n| Bahnhof Santa Maria Novella | 25 Minuten oder 10 Minuten mit dem Taxi |\n| Piazzale Michelangelo | 25 Minuten, das letzte Stück bergauf |\n\n### Anreise\n\nVom Flughafen oder vom Bahnhof braucht das Taxi zehn bis fünfzehn Minuten. Wenn Sie mit dem Auto kommen, fahren Sie nicht in die Altstadt: Sie ist eine verkehrsberuhigte Zone (ZTL) mit Kameras, und die Strafzettel kommen Monate später. Wir schicken Ihnen den Weg zu einer Garage direkt außerhalb der Zone. Unser [Anreise-Ratgeber](/de/blog/arriving-in-florence) beschreibt jede Route im Detail.\n",
        },
        PageKey.FAQ: {
            "title": "Häufige Fragen",
            "meta_description": "Antworten zum Penthouse in Santa Croce, Florenz: Check-in, Aufzug, Parken und ZTL, Kinder, Haustiere, Kurtaxe, Zahlung und Stornierung.",
            "intro": "Die Fragen, die Gäste uns am häufigsten stellen – mit Antworten.",
        },
        PageKey.BOOKING_POLICIES: {
            "title": "Buchungsbedingungen",
            "meta_description": "Stornierung, Zahlung, Mindestaufenthalt, Gebühren, Kurtaxe, Check-in-Zeiten und Hausregeln des Penthouse in Santa Croce, Florenz.",
            "intro": "Alles, was für Ihre Buchung gilt, in klaren Worten. Es sind dieselben Regeln, die unser Buchungssystem anwendet, wenn Sie Ihre Daten wählen.",
        },
        PageKey.BOOK: {
            "title": "Aufenthalt buchen",
            "meta_description": "Wählen Sie Ihre Daten, sehen Sie den vollen Preis Posten für Posten und buchen Sie das Penthouse in Santa Croce, Florenz, direkt und sicher.",
            "intro": "Wählen Sie An- und Abreise, sehen Sie den vollen Preis Posten für Posten und bezahlen Sie dann sicher. Kein Konto, keine Angaben vorab.",
        },
        PageKey.CONTACT: {
            "title": "Schreiben Sie uns",
            "meta_description": "Fragen zu Daten, Anreise oder Florenz? Schreiben Sie Giulia, der Gastgeberin des Penthouse in Santa Croce.",
            "intro": "Fragen zu Daten, Anreise oder Viertel? Giulia antwortet persönlich, meist innerhalb weniger Stunden.",
            "body": "Für Gruppenreisen, längere Aufenthalte oder einen besonderen Anlass auf der Terrasse: Erzählen Sie uns, was Sie vorhaben – wir helfen gern.",
        },
        PageKey.THANK_YOU: {
            "title": "Vielen Dank",
            "meta_description": "Ihre Buchung im Penthouse in Santa Croce, Florenz.",
        },
        PageKey.BLOG: {
            "title": "Journal",
            "meta_description": "Notizen aus Florenz von der Gastgeberin des Penthouse in Santa Croce: was man sehen sollte, wo man isst und wie man anreist.",
            "intro": "Notizen aus Florenz von Ihrer Gastgeberin: was Sie sehen sollten, wo Sie essen und wie Sie entspannt ankommen.",
        },
        PageKey.PRIVACY: {
            "title": "Datenschutz",
            "meta_description": "Welche Daten das Penthouse in Santa Croce über Gäste speichert, warum, wie lange – und Ihre Rechte nach der DSGVO.",
            "intro": "Wir speichern nur, was eine Buchung braucht, so lange das Gesetz es verlangt, und verkaufen oder teilen nichts für Werbung.",
        },
    },
    "fr": {
        PageKey.HOME: {
            "title": "Un appartement avec terrasse sur les toits de Florence",
            "meta_description": "Appartement de trois chambres pour 7 personnes près de Santa Croce à Florence, avec une terrasse sur le toit face au Duomo. Réservez en direct : disponibilités en temps réel, prix complet, sans frais de plateforme.",
            "intro": "Trois chambres, deux salles de bain et une terrasse sur le toit face à la coupole de Brunelleschi, à deux rues de Santa Croce. Réservez directement auprès de Giulia, votre hôte.",
            "body": "## Une maison en plein centre, pas une chambre d’hôtel\n\nAttico Santa Croce est une maison de famille que nous ouvrons à nos hôtes : de vrais livres sur les étagères, une cuisine où l’on cuisine vraiment et des lits que nous avons choisis après y avoir dormi. La terrasse est le cœur de la maison : une pergola, une grande table pour huit et la coupole de la cathédrale qui remplit tout le paysage.\n\nIci, on réserve en direct : le calendrier est à jour, le prix s’affiche ligne par ligne avant le paiement et vos questions arrivent chez Giulia, pas dans un centre d’appels.\n",
        },
        PageKey.PROPERTY: {
            "title": "L’appartement",
            "meta_description": "À l’intérieur d’Attico Santa Croce : trois chambres pour sept personnes, deux salles de bain, une cuisine équipée et une terrasse de 40 m² avec vue sur le Duomo.",
        },
        PageKey.AVAILABILITY: {
            "title": "Prix et disponibilités",
            "meta_description": "Disponibilités en temps réel et prix par nuit de l’appartement de Santa Croce à Florence, avec tarifs saisonniers, réductions à la semaine et le prix complet de vos dates.",
            "intro": "Chaque nuit libre avec son prix. Choisissez vos dates pour voir le total ligne par ligne – taxe de séjour et ménage compris – puis poursuivez la réservation.",
            "body": "Les prix s’entendent pour l’appartement entier, pas par personne. Le prix affiché est celui que vous payez : aucuns frais de réservation.",
        },
        PageKey.REVIEWS: {
            "title": "Avis des voyageurs",
            "meta_description": "Ce que les voyageurs disent d’Attico Santa Croce, l’appartement avec vue sur le Duomo à Florence : avis de clients directs, Airbnb et Booking.com.",
            "intro": "Les avis de voyageurs ayant réservé chez nous en direct ou via les plateformes, publiés tels qu’ils ont été écrits.",
        },
        PageKey.LOCATION: {
            "title": "Le quartier",
            "meta_description": "L’appartement se trouve via dei Pepi, à Santa Croce, Florence : 4 minutes de la basilique, 12 du Duomo. Temps de marche, plan et accès.",
            "intro": "À Santa Croce, le cœur vivant du centre historique : tout ce pour quoi vous venez à Florence se fait à pied.",
            "body": "![Plan schématique du centre de Florence : l’appartement à Santa Croce, à quelques pas à l’est du Duomo et au nord de l’Arno](/static/img/map-santa-croce.svg)\n\n*Plan schématique, pas à l’échelle.*\n\n## Santa Croce, la Florence des Florentins\n\nL’appartement se trouve via dei Pepi, une rue calme entre la basilique Santa Croce et le marché de Sant’Ambrogio. Le matin, les marchands installent leurs étals ; l’après-midi, les écoliers traversent la place ; le soir, les bars à vin de la via de’ Benci et de la via dei Macci s’animent. Central sans être un musée : dans la rue, on entend parler italien.\n\n### À pied depuis la porte\n\n| Où | À pied |\n|---|---|\n| Basilique et place Santa Croce | 4 minutes |\n| Marché de Sant’Ambrogio | 5 minutes |\n| Casa Buonarroti | 3 minutes |\n| Offices et Palazzo Vecchio | 10 minutes |\n| Duomo, baptistère et campanile | 12 minutes |\n| Ponte Vecchio | 13 minutes |\n| Galleria dell’Accademia (le David) | 15 minutes |\n| Gare de Santa Maria Novella | 25 minutes, ou 10 en taxi |\n| Piazzale Michelangelo | 25 minutes, la fin en montée |\n\n### Venir\n\nDepuis l’aéroport ou la gare, le taxi met dix à quinze minutes. Si vous venez en voiture, n’entrez pas dans le centre historique : c’est une zone à trafic limité (ZTL) surveillée par caméras, et les amendes arrivent des mois plus tard. Nous vous envoyons l’itinéraire vers un parking juste en dehors de la zone. Notre [guide d’arrivée](/fr/blog/arriving-in-florence) détaille chaque trajet.\n",
        },
        PageKey.FAQ: {
            "title": "Questions fréquentes",
            "meta_description": "Réponses sur l’appartement de Santa Croce à Florence : arrivée, ascenseur, stationnement et ZTL, enfants, animaux, taxe de séjour, paiement et annulation.",
            "intro": "Les questions que nos voyageurs nous posent le plus souvent, avec leurs réponses.",
        },
        PageKey.BOOKING_POLICIES: {
            "title": "Conditions de réservation",
            "meta_description": "Annulation, paiement, séjour minimum, frais, taxe de séjour, horaires d’arrivée et règlement intérieur de l’appartement de Santa Croce à Florence.",
            "intro": "Tout ce qui s’applique à votre réservation, en termes simples. Ce sont les mêmes règles que notre système applique quand vous choisissez vos dates.",
        },
        PageKey.BOOK: {
            "title": "Réservez votre séjour",
            "meta_description": "Choisissez vos dates, voyez le prix complet ligne par ligne et réservez en direct l’appartement de Santa Croce à Florence, avec paiement sécurisé.",
            "intro": "Choisissez vos dates d’arrivée et de départ, voyez le prix complet ligne par ligne, puis payez en toute sécurité. Ni compte ni informations à donner avant.",
        },
        PageKey.CONTACT: {
            "title": "Écrivez-nous",
            "meta_description": "Des questions sur les dates, l’arrivée ou Florence ? Écrivez à Giulia, l’hôte de l’appartement de Santa Croce.",
            "intro": "Des questions sur les dates, l’arrivée ou le quartier ? Giulia répond elle-même, généralement en quelques heures.",
            "body": "Voyage en groupe, long séjour ou occasion spéciale sur la terrasse : dites-nous ce que vous avez en tête, nous ferons de notre mieux pour vous aider.",
        },
        PageKey.THANK_YOU: {
            "title": "Merci",
            "meta_description": "Votre réservation à l’appartement de Santa Croce, Florence.",
        },
        PageKey.BLOG: {
            "title": "Carnet",
            "meta_description": "Notes de Florence par l’hôte de l’appartement de Santa Croce : que voir, où manger et comment arriver.",
            "intro": "Notes de Florence par votre hôte : que voir, où manger et comment arriver sans stress.",
        },
        PageKey.PRIVACY: {
            "title": "Confidentialité",
            "meta_description": "Ce que l’appartement de Santa Croce conserve sur ses voyageurs, pourquoi, combien de temps, et vos droits au titre du RGPD.",
            "intro": "Nous ne gardons que ce qu’une réservation exige, aussi longtemps que la loi le demande, et nous ne vendons ni ne partageons rien à des fins publicitaires.",
        },
    },
}

# In the order of pages/demo.py's FAQ.
FAQ = {
    "it": [
        (
            "A che ora possiamo fare check-in e check-out?",
            "Il check-in è nel pomeriggio e in serata, il check-out al mattino; gli orari esatti sono nella pagina delle [condizioni di prenotazione](/it/booking-policies). Giulia ti accoglie alla porta. Se il treno o il volo arriva tardi, diccelo quando prenoti e organizziamo un arrivo più tardo.",
        ),
        (
            "C’è l’ascensore?",
            "Sì. L’ascensore porta al quinto piano, dove inizia l’appartamento. Il livello della terrazza è una rampa di scale interne più su: ripida con valigie pesanti, quindi ti aiutiamo volentieri a portarle.",
        ),
        (
            "Si può parcheggiare vicino?",
            "Il centro storico è una zona a traffico limitato (ZTL) con telecamere a ogni accesso: per favore non arrivare in auto fino alla porta, le multe arrivano mesi dopo tramite l’autonoleggio. Ci sono garage pubblici appena fuori dalla zona, a dieci minuti a piedi; ti mandiamo le indicazioni insieme ai dettagli per l’arrivo.",
        ),
        (
            "L’attico è adatto ai bambini?",
            "Assolutamente sì: c’è spazio in abbondanza, culla e seggiolone su richiesta, e il mercato di Sant’Ambrogio e un parco giochi sono vicini. La terrazza ha un parapetto alto, ma tieni d’occhio i più piccoli lassù. Quando prenoti, i bambini contano come ospiti.",
        ),
        ("Accettate animali?", "Sì, gli animali educati sono i benvenuti. Avvisaci quando prenoti, così prepariamo una ciotola e una coperta."),
        (
            "La tassa di soggiorno è inclusa nel prezzo?",
            "Sì. Firenze applica un’imposta di soggiorno per persona e per notte, per un numero limitato di notti. È indicata come voce a parte nel prezzo prima di pagare ed è inclusa nel totale, quindi all’arrivo non c’è nulla da pagare. I bambini sotto l’età di esenzione non pagano; vedi le [condizioni di prenotazione](/it/booking-policies).",
        ),
        (
            "Come funziona la prenotazione diretta?",
            "Scegli le date nella [pagina di prenotazione](/it/book), indica il numero di ospiti e vedi il prezzo completo voce per voce. Premi *Prenota e paga*: le date restano bloccate mentre paghi su una pagina di pagamento sicura, dove inserisci nome, email e telefono. Appena il pagamento va a buon fine il soggiorno è confermato e ricevi subito l’email di conferma. Nessun account, nessuna commissione di piattaforma.",
        ),
        (
            "E se dobbiamo cancellare?",
            "Le condizioni di cancellazione sono nella pagina delle [condizioni di prenotazione](/it/booking-policies): prima cancelli, più ti viene rimborsato, e la tassa di soggiorno è sempre rimborsata per intero. Puoi cancellare da solo dal link nell’email di conferma: la pagina ti mostra il rimborso prima di confermare, e il denaro torna subito sulla tua carta.",
        ),
        (
            "Il Wi-Fi è adatto per lavorare?",
            "Sì: fibra, una scrivania dedicata in soggiorno e aria condizionata in tutte le stanze. Molti ospiti restano una o due settimane lavorando da qui; i soggiorni più lunghi hanno uno sconto.",
        ),
        (
            "Possiamo arrivare prima o partire più tardi?",
            "Spesso sì: dipende da chi parte o arriva quel giorno. Chiedicelo qualche giorno prima. Se l’appartamento non è ancora pronto, puoi lasciarci i bagagli e andare a pranzo.",
        ),
        ("Che lingue parlate?", "Giulia parla italiano, inglese e francese, e ti aiuta volentieri a prenotare i ristoranti in qualunque di queste lingue."),
        (
            "Un assistente IA può prenotare per me?",
            "Sì. Il nostro sistema di prenotazione ha un’API pubblica e un server di strumenti MCP, quindi un assistente IA può verificare le date, mostrarti il prezzo e prepararti un link di pagamento. Paghi sempre tu, sulla stessa pagina sicura. Gli sviluppatori trovano altre informazioni nella [pagina per gli agenti IA](/agents).",
        ),
    ],
    "de": [
        (
            "Wann können wir ein- und auschecken?",
            "Der Check-in ist nachmittags und abends, der Check-out morgens; die genauen Zeiten stehen auf der Seite mit den [Buchungsbedingungen](/de/booking-policies). Giulia empfängt Sie an der Tür. Kommt Ihr Zug oder Flug spät an, sagen Sie es uns bei der Buchung, dann vereinbaren wir eine spätere Ankunft.",
        ),
        (
            "Gibt es einen Aufzug?",
            "Ja. Ein Aufzug bringt Sie in den fünften Stock, wo die Wohnung beginnt. Die Terrassenebene liegt eine Innentreppe höher – steil mit schweren Koffern, deshalb helfen wir gern beim Tragen.",
        ),
        (
            "Kann man in der Nähe parken?",
            "Die Altstadt ist eine verkehrsberuhigte Zone (ZTL) mit Kameras an jeder Einfahrt, fahren Sie also bitte nicht bis vor die Tür: Die Strafzettel kommen Monate später über die Mietwagenfirma. Öffentliche Garagen gibt es direkt außerhalb der Zone, zehn Gehminuten entfernt; den Weg schicken wir Ihnen mit den Anreiseinformationen.",
        ),
        (
            "Ist das Penthouse für Kinder geeignet?",
            "Sehr sogar: Es gibt viel Platz, Kinderbett und Hochstuhl auf Anfrage, und der Markt Sant’Ambrogio und ein Spielplatz sind in der Nähe. Die Terrasse hat eine hohe Brüstung, trotzdem sollten kleine Kinder dort oben nicht unbeaufsichtigt sein. Bei der Buchung zählen Kinder als Gäste.",
        ),
        (
            "Sind Haustiere erlaubt?",
            "Ja, gut erzogene Haustiere sind willkommen. Sagen Sie uns bei der Buchung Bescheid, dann legen wir Napf und Decke bereit.",
        ),
        (
            "Ist die Kurtaxe im Preis enthalten?",
            "Ja. Florenz erhebt eine Kurtaxe pro Person und Nacht für eine begrenzte Zahl von Nächten. Sie steht vor dem Bezahlen als eigener Posten im Preis und ist im Gesamtbetrag enthalten, bei der Ankunft ist also nichts mehr zu zahlen. Kinder unter der Altersgrenze zahlen keine Kurtaxe; siehe die [Buchungsbedingungen](/de/booking-policies).",
        ),
        (
            "Wie funktioniert die Direktbuchung?",
            "Wählen Sie Ihre Daten auf der [Buchungsseite](/de/book), geben Sie die Zahl der Gäste an, und Sie sehen den vollen Preis Posten für Posten. Klicken Sie auf *Buchen und bezahlen*: Ihre Daten sind reserviert, während Sie auf einer sicheren Zahlungsseite bezahlen, wo Sie Name, E-Mail und Telefon angeben. Sobald die Zahlung durch ist, ist der Aufenthalt bestätigt und die Bestätigungs-E-Mail unterwegs. Kein Konto, keine Plattformgebühr.",
        ),
        (
            "Was, wenn wir stornieren müssen?",
            "Unsere Stornobedingungen stehen auf der Seite mit den [Buchungsbedingungen](/de/booking-policies): Je früher Sie stornieren, desto mehr wird erstattet, und die Kurtaxe wird immer vollständig erstattet. Stornieren Sie selbst über den Link in Ihrer Bestätigungs-E-Mail: Die Seite zeigt Ihnen die Erstattung, bevor Sie bestätigen, und das Geld geht sofort zurück auf Ihre Karte.",
        ),
        (
            "Reicht das WLAN zum Arbeiten?",
            "Ja: Glasfaser, ein eigener Schreibtisch im Wohnzimmer und Klimaanlage in jedem Raum. Viele Gäste bleiben ein oder zwei Wochen und arbeiten von hier; längere Aufenthalte sind günstiger.",
        ),
        (
            "Können wir früher anreisen oder später abreisen?",
            "Oft ja – es hängt davon ab, ob an dem Tag andere Gäste ab- oder anreisen. Fragen Sie uns ein paar Tage vorher. Ist die Wohnung noch nicht fertig, können Sie Ihr Gepäck bei uns lassen und zum Mittagessen gehen.",
        ),
        (
            "Welche Sprachen sprechen Sie?",
            "Giulia spricht Italienisch, Englisch und Französisch und hilft gern bei Restaurantreservierungen in jeder dieser Sprachen.",
        ),
        (
            "Kann ein KI-Assistent für mich buchen?",
            "Ja. Unser Buchungssystem hat eine öffentliche API und einen MCP-Tool-Server, sodass ein KI-Assistent Daten prüfen, Ihnen den Preis zeigen und einen Zahlungslink vorbereiten kann. Bezahlen tun Sie immer selbst, auf derselben sicheren Seite. Entwickler finden mehr auf der [Seite für KI-Agenten](/agents).",
        ),
    ],
    "fr": [
        (
            "À quelle heure peut-on arriver et partir ?",
            "L’arrivée se fait l’après-midi et en soirée, le départ le matin ; les horaires exacts figurent sur la page des [conditions de réservation](/fr/booking-policies). Giulia vous accueille à la porte. Si votre train ou votre vol arrive tard, dites-le-nous en réservant et nous organiserons une arrivée plus tardive.",
        ),
        (
            "Y a-t-il un ascenseur ?",
            "Oui. Un ascenseur monte au cinquième étage, où commence l’appartement. La terrasse est un étage plus haut par un escalier intérieur – raide avec de lourdes valises, alors nous vous aidons volontiers à les porter.",
        ),
        (
            "Peut-on se garer à proximité ?",
            "Le centre historique est une zone à trafic limité (ZTL) avec des caméras à chaque entrée : ne venez donc pas en voiture jusqu’à la porte, les amendes arrivent des mois plus tard via le loueur. Des parkings publics se trouvent juste en dehors de la zone, à dix minutes à pied ; nous vous envoyons l’itinéraire avec les informations d’arrivée.",
        ),
        (
            "L’appartement convient-il aux enfants ?",
            "Tout à fait : il y a de la place, un lit bébé et une chaise haute sur demande, et le marché de Sant’Ambrogio et une aire de jeux sont tout près. La terrasse a un garde-corps haut, mais gardez un œil sur les petits là-haut. Les enfants comptent comme voyageurs lors de la réservation.",
        ),
        (
            "Les animaux sont-ils acceptés ?",
            "Oui, les animaux bien élevés sont les bienvenus. Prévenez-nous en réservant pour que nous préparions une gamelle et une couverture.",
        ),
        (
            "La taxe de séjour est-elle comprise dans le prix ?",
            "Oui. Florence perçoit une taxe de séjour par personne et par nuit, pour un nombre limité de nuits. Elle figure sur une ligne à part dans le prix avant le paiement et elle est incluse dans le total : rien à payer à l’arrivée. Les enfants sous l’âge d’exonération ne paient pas ; voir les [conditions de réservation](/fr/booking-policies).",
        ),
        (
            "Comment fonctionne la réservation en direct ?",
            "Choisissez vos dates sur la [page de réservation](/fr/book), indiquez le nombre de voyageurs et vous voyez le prix complet ligne par ligne. Cliquez sur *Réserver et payer* : vos dates sont bloquées pendant que vous payez sur une page de paiement sécurisée, où vous indiquez nom, e-mail et téléphone. Dès que le paiement passe, le séjour est confirmé et l’e-mail de confirmation part aussitôt. Ni compte ni frais de plateforme.",
        ),
        (
            "Et si nous devons annuler ?",
            "Nos conditions d’annulation figurent sur la page des [conditions de réservation](/fr/booking-policies) : plus vous annulez tôt, plus le remboursement est élevé, et la taxe de séjour est toujours remboursée intégralement. Annulez vous-même depuis le lien de votre e-mail de confirmation : la page vous indique le remboursement avant que vous confirmiez, et l’argent repart aussitôt sur votre carte.",
        ),
        (
            "Le Wi-Fi permet-il de travailler ?",
            "Oui : la fibre, un bureau dans le séjour et la climatisation dans chaque pièce. Beaucoup de voyageurs restent une ou deux semaines en travaillant d’ici ; les longs séjours bénéficient d’une réduction.",
        ),
        (
            "Peut-on arriver plus tôt ou partir plus tard ?",
            "Souvent, oui : cela dépend des départs et arrivées du jour. Demandez-nous quelques jours avant. Si l’appartement n’est pas encore prêt, vous pouvez nous laisser vos bagages et aller déjeuner.",
        ),
        (
            "Quelles langues parlez-vous ?",
            "Giulia parle italien, anglais et français, et vous aide volontiers à réserver au restaurant dans chacune de ces langues.",
        ),
        (
            "Un assistant IA peut-il réserver pour moi ?",
            "Oui. Notre système de réservation dispose d’une API publique et d’un serveur d’outils MCP : un assistant IA peut vérifier les dates, vous montrer le prix et préparer un lien de paiement. C’est toujours vous qui payez, sur la même page sécurisée. Les développeurs trouveront davantage d’informations sur la [page pour les agents IA](/agents).",
        ),
    ],
}

SANTA_CROCE = {
    "it": {
        "title": "Santa Croce: guida al nostro quartiere",
        "summary": "La basilica di Michelangelo e Galileo, il mercato di Sant’Ambrogio, il gelato più antico della città e una biblioteca con vista sul Duomo: tutto a pochi minuti da casa.",
        "cover_alt": "La facciata in marmo bianco e verde della Basilica di Santa Croce sulla sua ampia piazza",
        "body": """\
Molti visitatori incontrano Santa Croce per un’ora: vedono la basilica, attraversano la piazza e ripartono. Se invece alloggi nel quartiere, diventa un’altra cosa: la parte del centro storico dove i fiorentini ancora fanno la spesa, discutono, mangiano e vanno a teatro. Ecco il nostro angolo.

## La basilica

La **Basilica di Santa Croce** è la più grande chiesa francescana del mondo e custodisce chi ha fatto l’Italia: qui sono sepolti Michelangelo, Galileo, Machiavelli e Rossini, e Dante, che Firenze esiliò, ha un monumento che lo aspetta ancora. Cerca gli **affreschi di Giotto** nelle cappelle Bardi e Peruzzi, a destra dell’altare, e non perdere la **Cappella dei Pazzi del Brunelleschi** nel primo chiostro: una stanza piccola e perfettamente proporzionata, tra i primi edifici del Rinascimento.

Dietro la basilica, in quelli che erano i dormitori dei frati, la **Scuola del Cuoio** insegna a lavorare la pelle dal secondo dopoguerra. Puoi guardare gli artigiani al banco e comprare direttamente in bottega.

## La piazza

**Piazza Santa Croce** è una delle grandi piazze di Firenze e ogni giugno diventa un’arena di sabbia per il **Calcio Storico**, un rude miscuglio rinascimentale di calcio, rugby e lotta giocato in costume tra i quattro quartieri storici. La finale è il 24 giugno, festa di San Giovanni, patrono della città. I biglietti sono pochi; il boato arriva comunque fino alla nostra terrazza.

Nelle strade intorno alla piazza, alza lo sguardo: piccole targhe di marmo segnano fin dove salì l’Arno nell’**alluvione del 4 novembre 1966**. Santa Croce, bassa e vicina al fiume, fu la zona più colpita; alcuni segni sono sopra la tua testa.

## Il mercato

A cinque minuti da casa, il **Mercato di Sant’Ambrogio** è dove il quartiere fa la spesa, ogni mattina tranne la domenica. Fuori i contadini vendono verdura; dentro il padiglione in ferro lavorano macellai, formaggiai e un minuscolo banco del pranzo sempre pieno. Vacci presto e con appetito. Dall’altra parte della strada, la famiglia di locali del **Cibrèo** sfama il quartiere da decenni, dal ristorante elegante alla trattoria allegra.

## Gelato, libri e una vista

- **Vivoli**, in un vicolo di via Ghibellina, è una delle gelaterie più antiche della città. Prova l’*affogato*: gelato annegato nell’espresso.
- **Casa Buonarroti**, a tre minuti in via Ghibellina, era la casa della famiglia di Michelangelo. Conserva due rilievi in marmo che scolpì da ragazzo, e quasi nessuno la visita.
- La **Biblioteca delle Oblate**, biblioteca pubblica in un ex convento di via dell’Oriuolo, ha un caffè sulla loggia superiore con una delle più belle viste gratuite sul Duomo.
- La cupola di rame verde che vedi dalla nostra terrazza è quella della **Sinagoga** di Firenze, poco oltre il mercato, con un museo sulla storia ebraica della città.

## La sera

Per l’*aperitivo*, via de’ Benci e le strade intorno a Sant’Ambrogio si riempiono dalle sette. Per qualcosa di più elegante, il **Teatro della Pergola**, uno dei teatri più antichi d’Italia, è a dieci minuti a piedi. E per il tavolo migliore del quartiere siamo di parte: porta la cena in terrazza e guarda le luci accendersi intorno alla cupola.
""",
    },
    "de": {
        "title": "Santa Croce: ein Führer durch unser Viertel",
        "summary": "Die Basilika von Michelangelo und Galileo, der Markt Sant’Ambrogio, das älteste Gelato der Stadt und ein Bibliothekscafé mit Domblick – alles wenige Minuten von unserer Tür.",
        "cover_alt": "Die weiß-grüne Marmorfassade der Basilika Santa Croce an ihrer weiten Piazza",
        "body": """\
Die meisten Besucher lernen Santa Croce für eine Stunde kennen: Sie sehen die Basilika, überqueren die Piazza und ziehen weiter. Wer im Viertel wohnt, erlebt etwas anderes – den Teil der Altstadt, in dem Florentiner noch einkaufen, diskutieren, essen und ins Theater gehen. Das ist unsere Ecke.

## Die Basilika

Die **Basilika Santa Croce** ist die größte Franziskanerkirche der Welt und Ruhestätte derer, die Italien geprägt haben: Michelangelo, Galileo, Machiavelli und Rossini liegen hier begraben, und Dante – den Florenz verbannte – hat ein Denkmal, das noch immer auf ihn wartet. Suchen Sie **Giottos Fresken** in den Kapellen Bardi und Peruzzi rechts vom Altar, und verpassen Sie nicht **Brunelleschis Pazzi-Kapelle** im ersten Kreuzgang, einen kleinen, vollkommen proportionierten Raum und einen der ersten Bauten der Renaissance.

Hinter der Basilika, in den einstigen Schlafsälen der Mönche, lehrt die **Scuola del Cuoio** seit kurz nach dem Zweiten Weltkrieg das Lederhandwerk. Sie können den Handwerkern an der Werkbank zusehen und direkt in der Werkstatt kaufen.

## Die Piazza

Die **Piazza Santa Croce** ist einer der großen Plätze von Florenz, und jeden Juni wird sie zur Sandarena für den **Calcio Storico**, eine raue Renaissance-Mischung aus Fußball, Rugby und Ringen, in Kostümen gespielt zwischen den vier historischen Stadtvierteln. Das Finale ist am 24. Juni, dem Fest des Stadtpatrons Johannes. Karten sind knapp; der Lärm dringt ohnehin bis auf unsere Terrasse.

In den Straßen rund um den Platz lohnt ein Blick nach oben: Kleine Marmortafeln zeigen, wie hoch der Arno beim **Hochwasser vom 4. November 1966** stieg. Santa Croce, tief gelegen und nah am Fluss, traf es am härtesten; manche Marken sind über Ihrem Kopf.

## Der Markt

Fünf Minuten von der Tür entfernt kauft das Viertel auf dem **Mercato di Sant’Ambrogio** ein, jeden Morgen außer sonntags. Draußen verkaufen Bauern Gemüse, drinnen in der Eisenhalle arbeiten Metzger, Käsehändler und eine winzige, immer volle Mittagstheke. Gehen Sie früh und hungrig hin. Gegenüber versorgt die **Cibrèo**-Familie von Lokalen das Viertel seit Jahrzehnten, vom feinen Restaurant bis zur fröhlichen Trattoria.

## Gelato, Bücher und eine Aussicht

- **Vivoli** in einer Gasse der Via Ghibellina ist eine der ältesten Eisdielen der Stadt. Probieren Sie das *Affogato*: Eis, in Espresso ertränkt.
- Die **Casa Buonarroti**, drei Minuten entfernt in der Via Ghibellina, war das Haus von Michelangelos Familie. Sie bewahrt zwei Marmorreliefs, die er als Jugendlicher schuf – und kaum jemand besucht sie.
- Die **Biblioteca delle Oblate**, eine öffentliche Bibliothek in einem ehemaligen Kloster in der Via dell’Oriuolo, hat auf ihrer oberen Loggia ein Café mit einem der schönsten kostenlosen Domblicke der Stadt.
- Die grüne Kupferkuppel, die Sie von unserer Terrasse sehen, gehört zur **Großen Synagoge** von Florenz, ein kurzes Stück hinter dem Markt, mit einem Museum zur jüdischen Geschichte der Stadt.

## Abends

Zum *Aperitivo* füllen sich ab sieben die Via de’ Benci und die Straßen um Sant’Ambrogio. Wer es festlicher mag: Das **Teatro della Pergola**, eines der ältesten Theater Italiens, liegt zehn Gehminuten entfernt. Und beim besten Tisch des Viertels sind wir befangen: Tragen Sie das Abendessen auf die Terrasse und sehen Sie zu, wie rund um die Kuppel die Lichter angehen.
""",
    },
    "fr": {
        "title": "Santa Croce : guide de notre quartier",
        "summary": "La basilique de Michel-Ange et de Galilée, le marché de Sant’Ambrogio, le plus ancien glacier de la ville et une bibliothèque avec vue sur le Duomo, à quelques minutes de notre porte.",
        "cover_alt": "La façade de marbre blanc et vert de la basilique Santa Croce sur sa vaste place",
        "body": """\
La plupart des visiteurs ne font que passer une heure à Santa Croce : ils voient la basilique, traversent la place et repartent. Logez dans le quartier et il devient autre chose : la partie du centre historique où les Florentins font encore leurs courses, discutent, mangent et vont au théâtre. Voici notre coin.

## La basilique

La **basilique Santa Croce** est la plus grande église franciscaine du monde et le lieu de repos de ceux qui ont fait l’Italie : Michel-Ange, Galilée, Machiavel et Rossini y sont enterrés, et Dante – que Florence exila – y a un monument qui l’attend toujours. Cherchez les **fresques de Giotto** dans les chapelles Bardi et Peruzzi, à droite de l’autel, et ne manquez pas la **chapelle des Pazzi de Brunelleschi** dans le premier cloître : une petite salle aux proportions parfaites, l’un des premiers édifices de la Renaissance.

Derrière la basilique, dans les anciens dortoirs des frères, la **Scuola del Cuoio** enseigne le travail du cuir depuis l’après-guerre. On peut regarder les artisans à l’établi et acheter directement à l’atelier.

## La place

La **piazza Santa Croce** est l’une des grandes places de Florence, et chaque mois de juin elle devient une arène de sable pour le **Calcio Storico**, un mélange brutal de football, de rugby et de lutte datant de la Renaissance, joué en costume entre les quatre quartiers historiques. La finale a lieu le 24 juin, fête de saint Jean, patron de la ville. Les billets sont rares ; le vacarme monte de toute façon jusqu’à notre terrasse.

Dans les rues autour de la place, levez les yeux : de petites plaques de marbre indiquent jusqu’où l’Arno est monté lors de la **crue du 4 novembre 1966**. Santa Croce, basse et proche du fleuve, fut la plus touchée ; certaines marques sont au-dessus de votre tête.

## Le marché

À cinq minutes de la porte, le **Mercato di Sant’Ambrogio** est l’endroit où le quartier fait ses courses, tous les matins sauf le dimanche. Dehors, les maraîchers vendent leurs légumes ; dans la halle de fer, bouchers, fromagers et un minuscule comptoir de déjeuner toujours plein. Allez-y tôt et le ventre vide. En face, la famille de restaurants du **Cibrèo** nourrit le quartier depuis des décennies, de la table élégante à la trattoria joyeuse.

## Glaces, livres et une vue

- **Vivoli**, dans une ruelle donnant sur la via Ghibellina, est l’un des plus anciens glaciers de la ville. Goûtez l’*affogato* : de la glace noyée dans un espresso.
- La **Casa Buonarroti**, à trois minutes via Ghibellina, était la maison de la famille de Michel-Ange. Elle conserve deux reliefs de marbre qu’il sculpta adolescent, et presque personne ne la visite.
- La **Biblioteca delle Oblate**, bibliothèque publique installée dans un ancien couvent de la via dell’Oriuolo, a un café sur sa loggia supérieure avec l’une des plus belles vues gratuites sur le Duomo.
- La coupole de cuivre vert que vous voyez depuis notre terrasse est celle de la **Grande Synagogue** de Florence, un peu au-delà du marché, avec un musée de l’histoire juive de la ville.

## Le soir

Pour l’*aperitivo*, la via de’ Benci et les rues autour de Sant’Ambrogio se remplissent dès sept heures. Pour une sortie plus habillée, le **Teatro della Pergola**, l’un des plus anciens théâtres d’Italie, est à dix minutes à pied. Quant à la meilleure table du quartier, nous ne sommes pas objectifs : montez le dîner sur la terrasse et regardez les lumières s’allumer autour de la coupole.
""",
    },
}

ARTICLES = {"three-slow-days-in-florence": THREE_DAYS, "santa-croce-neighbourhood-guide": SANTA_CROCE, "arriving-in-florence": ARRIVAL}
