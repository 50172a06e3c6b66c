"""The demo article "Arriving in Florence" in Italian, German and French (pages/demo.py has the
English; pages/demo_translations.py lists the translated articles)."""

ARRIVAL = {
    "it": {
        "title": "Arrivare a Firenze: aeroporto, stazione e gli ultimi cento metri",
        "summary": "Dagli aeroporti di Firenze, Pisa o Bologna, in treno o in auto (attenzione alla ZTL): come raggiungere l’attico senza stress e cosa portare all’arrivo.",
        "cover_alt": "Un tram e una valigia davanti alla stazione di Santa Maria Novella",
        "body": """\
Arrivare in una città nuova dopo un viaggio è il momento in cui le cose vanno storte: ecco tutto quello che diciamo ai nostri ospiti, percorso per percorso, fino agli ultimi cento metri.

## Dall’aeroporto di Firenze (FLR)

L’aeroporto di Firenze, Amerigo Vespucci (detto anche Peretola), è a pochi chilometri dal centro.

- La **tramvia T2** parte davanti al terminal e arriva in una ventina di minuti alla fermata *Unità*, accanto alla stazione di Santa Maria Novella. Compra il biglietto alla macchinetta prima di salire. Da lì prendi un taxi o vai a piedi (vedi sotto).
- **Taxi**: il posteggio è fuori dagli arrivi e la corsa fino alla nostra porta dura da venti a venticinque minuti. Dall’aeroporto al centro i taxi applicano una tariffa fissa; chiedi conferma al tassista prima di partire.

## Dall’aeroporto di Pisa (PSA)

Molti voli internazionali atterrano a Pisa. Prendi il **PisaMover** dal terminal a Pisa Centrale (cinque minuti), poi un treno regionale per **Firenze Santa Maria Novella**. I treni passano più volte all’ora e impiegano circa un’ora. I regionali non vanno prenotati: il biglietto vale per una tratta, non per un posto.

## Dall’aeroporto di Bologna (BLQ)

La monorotaia **Marconi Express** collega l’aeroporto a Bologna Centrale, e i treni ad alta velocità arrivano a Firenze in una quarantina di minuti. Spesso è la via più rapida dal Nord Europa.

## In treno

Quasi tutti i treni fermano a **Firenze Santa Maria Novella** (SMN), la stazione principale. Da lì:

- **Taxi**: il posteggio è a sinistra uscendo dai binari. Da dieci a quindici minuti fino alla nostra porta.
- **A piedi**: circa venticinque minuti attraverso il centro, passando dal Duomo. È una bella passeggiata, ma le strade sono lastricate di pietra e le rotelle delle valigie non ringraziano.

## In auto: attenzione alla ZTL

Il centro storico è una **Zona a Traffico Limitato**: le telecamere a ogni varco fotografano le targhe delle auto senza permesso, e la multa ti raggiunge mesi dopo la vacanza, tramite il noleggiatore e con una commissione in più. Il navigatore ti ci farà passare volentieri. Per favore non venire in auto fino alla porta: se prenoti un soggiorno con l’auto, ti mandiamo le indicazioni per un garage pubblico appena fuori dalla zona, a dieci minuti a piedi.

## Gli ultimi cento metri

Mandaci l’orario di arrivo un giorno o due prima e Giulia ti aspetterà al portone di via dei Pepi. L’ascensore porta al quinto piano; il livello della terrazza è una rampa di scale più su, e ti aiutiamo volentieri con i bagagli. Gli orari di check-in e check-out sono nella pagina delle [condizioni di prenotazione](/it/booking-policies); se arrivi presto, di solito possiamo tenerti i bagagli mentre vai a pranzo.

## Da sapere all’arrivo

- **Porta un documento** per ogni ospite, bambini compresi: la legge italiana ci obbliga a registrare ogni ospite presso la Questura all’arrivo. Ci vogliono due minuti.
- **La tassa di soggiorno** è già compresa in quanto hai pagato alla prenotazione.
- **L’acqua del rubinetto** a Firenze è potabile.
- Le prese italiane accettano spine a due poli tonde (tipo F e L). In casa teniamo un paio di adattatori.
- Il numero europeo di emergenza **112** funziona ovunque in Italia; la farmacia più vicina è a pochi minuti a piedi e in cucina lasciamo l’elenco di quelle aperte fino a tardi.

Buon viaggio: non vediamo l’ora di accoglierti.
""",
    },
    "de": {
        "title": "Ankommen in Florenz: Flughafen, Bahnhof und die letzten hundert Meter",
        "summary": "Von den Flughäfen Florenz, Pisa oder Bologna, mit dem Zug oder dem Auto (Achtung ZTL): wie Sie das Penthouse ohne Stress erreichen und was Sie zur Ankunft mitbringen.",
        "cover_alt": "Eine Straßenbahn und ein Koffer vor dem Bahnhof Santa Maria Novella",
        "body": """\
Die Ankunft in einer fremden Stadt nach einer Reise ist der Moment, in dem etwas schiefgeht – deshalb hier alles, was wir unseren Gästen sagen, Weg für Weg, bis zu den letzten hundert Metern.

## Vom Flughafen Florenz (FLR)

Der Flughafen von Florenz, Amerigo Vespucci (auch Peretola genannt), liegt nur wenige Kilometer vom Zentrum.

- Die **Straßenbahn T2** fährt vor dem Terminal ab und erreicht in etwa zwanzig Minuten die Haltestelle *Unità* neben dem Bahnhof Santa Maria Novella. Kaufen Sie das Ticket vor dem Einsteigen am Automaten. Von dort nehmen Sie ein Taxi oder gehen zu Fuß (siehe unten).
- **Taxi**: Der Taxistand ist vor der Ankunftshalle, die Fahrt bis zu unserer Tür dauert zwanzig bis fünfundzwanzig Minuten. Vom Flughafen ins Zentrum gilt ein Festpreis; lassen Sie ihn sich vor der Abfahrt vom Fahrer bestätigen.

## Vom Flughafen Pisa (PSA)

Viele internationale Flüge landen in Pisa. Nehmen Sie den **PisaMover** vom Terminal zum Bahnhof Pisa Centrale (fünf Minuten), dann einen Regionalzug nach **Firenze Santa Maria Novella**. Die Züge fahren mehrmals pro Stunde und brauchen etwa eine Stunde. Regionalzüge muss man nicht reservieren: Das Ticket gilt für eine Strecke, nicht für einen Platz.

## Vom Flughafen Bologna (BLQ)

Die Einschienenbahn **Marconi Express** verbindet den Flughafen mit Bologna Centrale, und Hochgeschwindigkeitszüge erreichen Florenz in etwa vierzig Minuten. Aus Nordeuropa ist das oft der schnellste Weg.

## Mit dem Zug

Fast jeder Zug hält in **Firenze Santa Maria Novella** (SMN), dem Hauptbahnhof. Von dort:

- **Taxi**: Der Stand liegt links, wenn Sie die Bahnsteige verlassen. Zehn bis fünfzehn Minuten bis zu unserer Tür.
- **Zu Fuß**: etwa fünfundzwanzig Minuten quer durch das Zentrum, am Dom vorbei. Ein schöner Weg, aber die Straßen sind mit Steinplatten gepflastert, die Kofferrollen nicht mögen.

## Mit dem Auto: Achtung ZTL

Die Altstadt ist eine **Zona a Traffico Limitato**: Kameras an jeder Einfahrt fotografieren die Kennzeichen von Autos ohne Genehmigung, und das Bußgeld erreicht Sie – über die Autovermietung, mit Bearbeitungsgebühr – Monate nach dem Urlaub. Das Navi führt Sie bereitwillig hinein. Bitte fahren Sie nicht bis vor unsere Tür: Wenn Sie einen Aufenthalt mit Auto buchen, schicken wir Ihnen den Weg zu einer öffentlichen Garage knapp außerhalb der Zone, zehn Gehminuten entfernt.

## Die letzten hundert Meter

Schicken Sie uns Ihre Ankunftszeit ein bis zwei Tage vorher, und Giulia empfängt Sie an der Haustür in der Via dei Pepi. Ein Aufzug bringt Sie in den fünften Stock; die Terrassenebene liegt eine Treppe höher, und wir helfen gern mit dem Gepäck. Die Check-in- und Check-out-Zeiten stehen auf der Seite mit den [Buchungsbedingungen](/de/booking-policies); wenn Sie früh ankommen, können wir Ihr Gepäck meist aufbewahren, während Sie zu Mittag essen.

## Gut zu wissen bei der Ankunft

- **Bringen Sie einen Ausweis** für jeden Gast mit, Kinder eingeschlossen: Das italienische Gesetz verpflichtet uns, jeden Gast bei der Ankunft der Polizei zu melden. Das dauert zwei Minuten.
- **Die Kurtaxe** ist bereits in dem enthalten, was Sie bei der Buchung bezahlt haben.
- **Leitungswasser** ist in Florenz trinkbar.
- Italienische Steckdosen nehmen zweipolige runde Stecker (Typ F und L). Ein paar Adapter liegen in der Wohnung.
- Die europäische Notrufnummer **112** gilt überall in Italien; die nächste Apotheke ist wenige Gehminuten entfernt, und in der Küche liegt eine Liste der Apotheken mit langen Öffnungszeiten.

Gute Reise – wir freuen uns darauf, Sie zu begrüßen.
""",
    },
    "fr": {
        "title": "Arriver à Florence : aéroport, gare et les cent derniers mètres",
        "summary": "Depuis les aéroports de Florence, Pise ou Bologne, en train ou en voiture (attention à la ZTL) : comment rejoindre le penthouse sans stress, et quoi apporter à l’arrivée.",
        "cover_alt": "Un tramway et une valise devant la gare de Santa Maria Novella",
        "body": """\
Arriver dans une ville inconnue après un voyage, c’est le moment où les choses se compliquent – voici donc tout ce que nous disons à nos hôtes, itinéraire par itinéraire, jusqu’aux cent derniers mètres.

## Depuis l’aéroport de Florence (FLR)

L’aéroport de Florence, Amerigo Vespucci (dit aussi Peretola), n’est qu’à quelques kilomètres du centre.

- Le **tramway T2** part devant le terminal et rejoint en une vingtaine de minutes l’arrêt *Unità*, à côté de la gare de Santa Maria Novella. Achetez le billet au distributeur avant de monter. De là, prenez un taxi ou marchez (voir plus bas).
- **Taxi** : la station est devant les arrivées et la course jusqu’à notre porte prend vingt à vingt-cinq minutes. De l’aéroport au centre, les taxis appliquent un forfait ; faites-le confirmer au chauffeur avant de partir.

## Depuis l’aéroport de Pise (PSA)

Beaucoup de vols internationaux atterrissent à Pise. Prenez la navette **PisaMover** du terminal jusqu’à la gare de Pisa Centrale (cinq minutes), puis un train régional pour **Firenze Santa Maria Novella**. Les trains passent plusieurs fois par heure et mettent environ une heure. Inutile de réserver les trains régionaux : le billet vaut pour un trajet, pas pour une place.

## Depuis l’aéroport de Bologne (BLQ)

Le monorail **Marconi Express** relie l’aéroport à Bologna Centrale, et les trains à grande vitesse rejoignent Florence en une quarantaine de minutes. C’est souvent le chemin le plus rapide depuis le nord de l’Europe.

## En train

Presque tous les trains s’arrêtent à **Firenze Santa Maria Novella** (SMN), la gare principale. De là :

- **Taxi** : la station est à gauche en sortant des quais. Dix à quinze minutes jusqu’à notre porte.
- **À pied** : environ vingt-cinq minutes à travers le centre, en passant par le Duomo. Une belle promenade, mais les rues sont pavées de dalles de pierre que les roulettes des valises n’aiment guère.

## En voiture : attention à la ZTL

Le centre historique est une **Zona a Traffico Limitato** : des caméras à chaque entrée photographient les plaques des voitures sans autorisation, et l’amende vous parvient – par le loueur, avec des frais de dossier – des mois après vos vacances. Le GPS vous y fera entrer sans hésiter. Merci de ne pas venir en voiture jusqu’à notre porte : si vous réservez un séjour avec une voiture, nous vous envoyons l’itinéraire vers un parking public juste à l’extérieur de la zone, à dix minutes à pied.

## Les cent derniers mètres

Envoyez-nous votre heure d’arrivée un jour ou deux avant, et Giulia vous accueillera à la porte de la rue, via dei Pepi. Un ascenseur monte au cinquième étage ; le niveau de la terrasse est un étage plus haut par l’escalier, et nous vous aidons volontiers avec les bagages. Les horaires d’arrivée et de départ sont sur la page des [conditions de réservation](/fr/booking-policies) ; si vous arrivez tôt, nous pouvons en général garder vos bagages pendant que vous allez déjeuner.

## Bon à savoir à l’arrivée

- **Apportez une pièce d’identité** pour chaque hôte, enfants compris : la loi italienne nous oblige à déclarer chaque hôte à la police à son arrivée. Cela prend deux minutes.
- **La taxe de séjour** est déjà comprise dans ce que vous avez payé à la réservation.
- **L’eau du robinet** est potable à Florence.
- Les prises italiennes acceptent les fiches rondes à deux broches (types F et L). Nous gardons deux adaptateurs dans l’appartement.
- Le numéro d’urgence européen **112** fonctionne partout en Italie ; la pharmacie la plus proche est à quelques minutes à pied, et nous laissons dans la cuisine la liste de celles ouvertes tard.

Bon voyage – nous avons hâte de vous accueillir.
""",
    },
}
