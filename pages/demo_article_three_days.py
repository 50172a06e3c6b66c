"""The demo article "Three slow days in Florence" in Italian, German and French (pages/demo.py has
the English; pages/demo_translations.py lists the translated articles)."""

THREE_DAYS = {
    "it": {
        "title": "Tre giorni lenti a Firenze",
        "summary": "Come passeremmo tre giorni a Firenze: il Duomo e il suo museo, gli Uffizi e l’Oltrarno, il David, Donatello e la nostra Santa Croce, con il tempo per pranzare.",
        "cover_alt": "Il profilo di Firenze al tramonto: la cupola del Duomo, il campanile di Giotto e la torre di Palazzo Vecchio sopra l’Arno",
        "body": """\
Firenze premia chi non ha fretta. La città è piccola, il centro storico si attraversa a piedi in mezz’ora, ma è fitta di cose davanti a cui fermarsi. Ecco come passeremmo tre giorni, con un po’ di spazio per un lungo pranzo.

## Primo giorno: la cattedrale e il mercato

Comincia presto dal **Duomo**. L’ingresso in cattedrale è gratuito, ma la salita sulla **cupola del Brunelleschi**, 463 gradini tra la calotta interna e quella esterna, richiede un biglietto a orario: prenotalo qualche giorno prima. La ricompensa è la vista, e da vicino il *Giudizio universale* del Vasari durante la salita. Se preferisci salire con la cupola nell’inquadratura, il **campanile di Giotto** accanto ha 414 gradini e nessun orario d’ingresso.

Non saltare il **Museo dell’Opera del Duomo**, dietro la cattedrale. Custodisce le formelle originali della *Porta del Paradiso* del Ghiberti, l’intensa *Maddalena* di Donatello e la *Pietà* che Michelangelo scolpì per la propria tomba. È raramente affollato.

A pranzo, cinque minuti a piedi fino al **Mercato Centrale** di San Lorenzo: al piano terra un vero mercato alimentare, al piano di sopra una sala di banchi dove mangiare di tutto, dal *lampredotto* alla pasta fresca. Passa il pomeriggio alle **Cappelle Medicee**, poi chiudi la giornata dall’altra parte del fiume (vedi il secondo giorno) o semplicemente sulla nostra terrazza, a guardare la cupola cambiare colore.

## Secondo giorno: gli Uffizi e l’Oltrarno

Prenota il primo turno del mattino agli **Uffizi**. Vai subito alle sale del Botticelli prima che arrivino i gruppi, poi prenditi il tuo tempo: Leonardo, il *Tondo Doni* di Michelangelo, Caravaggio e le finestre sull’Arno, che sono già un quadro.

Attraversa il **Ponte Vecchio** ed entra nell’**Oltrarno**, la riva degli artigiani. Passeggia per le strade intorno a **Santo Spirito**, dove legatori, corniciai e restauratori lavorano ancora a porte aperte. Il **Giardino di Boboli**, dietro Palazzo Pitti, è il posto per una passeggiata pomeridiana: sali fino in cima per la vista sulla città.

Al tramonto sali a **San Miniato al Monte**, sopra Piazzale Michelangelo. È una delle più belle chiese romaniche d’Italia e nel tardo pomeriggio i monaci cantano i vespri in gregoriano (gli orari sono alla porta). Poi scendi per un *aperitivo* in piazza Santo Spirito.

## Terzo giorno: il David, Donatello e Santa Croce

Il **David** di Michelangelo abita alla **Galleria dell’Accademia** e vale la coda, che un biglietto a orario ti risparmia. Se l’hai già visto, dedica invece la mattina al **Bargello**, il museo della scultura, dove il *David* in bronzo di Donatello e il giovanile *Bacco* di Michelangelo condividono un palazzo con cortile e molti meno visitatori. Poco lontano, le celle del **convento di San Marco** sono dipinte con gli affreschi del Beato Angelico, uno in ogni cella.

Tieni il pomeriggio per il nostro quartiere: la Basilica di **Santa Croce**, la scuola del cuoio nel suo chiostro e un gelato da Vivoli. La nostra [guida a Santa Croce](/it/blog/santa-croce-neighbourhood-guide) racconta tutto.

## Note pratiche

- Quasi tutti i musei statali, Uffizi e Accademia compresi, **chiudono il lunedì**. Organizzati di conseguenza.
- Prenota prima di partire i biglietti a orario per la cupola, gli Uffizi e l’Accademia; il resto si decide sul momento.
- Firenze ha fontanelle pubbliche di acqua potabile, alcune anche frizzante. Porta una borraccia.
- Nelle chiese si entra con spalle e ginocchia coperte: una sciarpa leggera in borsa risolve tutto.
""",
    },
    "de": {
        "title": "Drei entspannte Tage in Florenz",
        "summary": "Wie wir drei Tage in Florenz verbringen würden: der Dom und sein Museum, die Uffizien und das Oltrarno, David, Donatello und unser eigenes Santa Croce – mit Zeit zum Mittagessen.",
        "cover_alt": "Die Silhouette von Florenz in der Abenddämmerung: die Domkuppel, Giottos Glockenturm und der Turm des Palazzo Vecchio über dem Arno",
        "body": """\
Florenz belohnt alle, die sich Zeit lassen. Die Stadt ist klein – die Altstadt durchquert man zu Fuß in einer halben Stunde –, aber sie ist dicht an Dingen, vor denen man stehen bleiben möchte. So würden wir drei Tage verbringen, mit etwas Luft für ein langes Mittagessen.

## Erster Tag: der Dom und der Markt

Beginnen Sie früh am **Dom**. Der Eintritt in die Kathedrale ist frei, doch der Aufstieg in **Brunelleschis Kuppel** – 463 Stufen zwischen innerer und äußerer Schale – braucht ein Ticket mit Zeitfenster; buchen Sie es ein paar Tage vorher. Der Lohn ist die Aussicht, und unterwegs ein naher Blick auf Vasaris *Jüngstes Gericht*. Wer beim Steigen lieber die Kuppel im Bild hat, nimmt **Giottos Glockenturm** nebenan: 414 Stufen, ohne Zeitfenster.

Lassen Sie das **Museo dell’Opera del Duomo** hinter der Kathedrale nicht aus. Dort stehen die Originaltafeln von Ghibertis *Paradiesespforte*, Donatellos ergreifende *Maria Magdalena* und die *Pietà*, die Michelangelo für sein eigenes Grab schuf. Voll ist es dort selten.

Zum Mittagessen geht es fünf Minuten zum **Mercato Centrale** in San Lorenzo: unten ein echter Lebensmittelmarkt, oben eine Halle voller Theken, an denen man alles essen kann, von *Lampredotto* bis zu frischer Pasta. Den Nachmittag verbringen Sie in den **Medici-Kapellen**; beenden Sie den Tag auf der anderen Seite des Flusses (siehe zweiter Tag) oder einfach auf unserer Terrasse, während die Kuppel ihre Farbe wechselt.

## Zweiter Tag: die Uffizien und das Oltrarno

Buchen Sie in den **Uffizien** das erste Zeitfenster des Morgens. Gehen Sie direkt in die Botticelli-Säle, bevor die Gruppen kommen, und nehmen Sie sich dann Zeit: Leonardo, Michelangelos *Tondo Doni*, Caravaggio und die Fenster zum Arno, die selbst wie Gemälde sind.

Überqueren Sie den **Ponte Vecchio** ins **Oltrarno**, die Handwerkerseite des Flusses. Schlendern Sie durch die Gassen um **Santo Spirito**, wo Buchbinder, Rahmenmacher und Restauratoren noch bei offener Tür arbeiten. Der **Boboli-Garten** hinter dem Palazzo Pitti ist der Ort für einen Nachmittagsspaziergang; steigen Sie bis ganz nach oben, für den Blick zurück über die Stadt.

Bei Sonnenuntergang geht es hinauf nach **San Miniato al Monte**, oberhalb des Piazzale Michelangelo. Sie ist eine der schönsten romanischen Kirchen Italiens, und am frühen Abend singen die Mönche die Vesper im gregorianischen Choral (die Zeiten stehen an der Tür). Danach hinunter zu einem *Aperitivo* auf der Piazza Santo Spirito.

## Dritter Tag: David, Donatello und Santa Croce

Michelangelos **David** steht in der **Galleria dell’Accademia**, und er ist die Warteschlange wert – die Ihnen ein Ticket mit Zeitfenster erspart. Kennen Sie ihn schon, widmen Sie den Morgen lieber dem **Bargello**, dem Skulpturenmuseum: Dort teilen sich Donatellos bronzener *David* und Michelangelos früher *Bacchus* einen Palast mit Innenhof, bei weit weniger Besuchern. Ganz in der Nähe sind die Zellen des **Klosters San Marco** mit Fresken von Fra Angelico bemalt, eines in jeder Mönchszelle.

Den Nachmittag heben Sie sich für unser Viertel auf: die Basilika **Santa Croce**, die Lederschule in ihrem Kreuzgang und ein Eis bei Vivoli. Unser [Führer durch Santa Croce](/de/blog/santa-croce-neighbourhood-guide) erzählt mehr.

## Praktische Hinweise

- Die meisten staatlichen Museen, darunter die Uffizien und die Accademia, sind **montags geschlossen**. Planen Sie darum herum.
- Tickets mit Zeitfenster für die Kuppel, die Uffizien und die Accademia vor der Reise buchen; alles andere lässt sich am Tag selbst entscheiden.
- Florenz hat öffentliche Trinkbrunnen, manche sogar mit Sprudelwasser. Nehmen Sie eine Flasche mit.
- In Kirchen sollten Schultern und Knie bedeckt sein. Ein leichter Schal in der Tasche löst das.
""",
    },
    "fr": {
        "title": "Trois jours sans se presser à Florence",
        "summary": "Comment nous passerions trois jours à Florence : le Duomo et son musée, les Offices et l’Oltrarno, David, Donatello et notre Santa Croce – avec le temps de déjeuner.",
        "cover_alt": "Florence au crépuscule : la coupole de la cathédrale, le campanile de Giotto et la tour du Palazzo Vecchio au-dessus de l’Arno",
        "body": """\
Florence récompense ceux qui prennent leur temps. La ville est petite – on traverse le centre historique à pied en une demi-heure – mais dense en choses devant lesquelles s’arrêter. Voici comment nous passerions trois jours, en gardant de la place pour un long déjeuner.

## Premier jour : la cathédrale et le marché

Commencez tôt au **Duomo**. L’entrée de la cathédrale est libre, mais la montée dans la **coupole de Brunelleschi** – 463 marches entre les deux calottes – demande un billet horodaté : réservez-le quelques jours à l’avance. La récompense, c’est la vue, et en chemin le *Jugement dernier* de Vasari vu de près. Si vous préférez grimper avec la coupole dans le cadre, le **campanile de Giotto** juste à côté compte 414 marches, sans horaire imposé.

Ne manquez pas le **Museo dell’Opera del Duomo**, derrière la cathédrale. On y voit les panneaux originaux de la *Porte du Paradis* de Ghiberti, la bouleversante *Marie-Madeleine* de Donatello et la *Pietà* que Michel-Ange sculpta pour son propre tombeau. Il y a rarement foule.

Pour déjeuner, cinq minutes à pied jusqu’au **Mercato Centrale** de San Lorenzo : au rez-de-chaussée un vrai marché alimentaire, à l’étage une halle de comptoirs où l’on mange de tout, du *lampredotto* aux pâtes fraîches. Passez l’après-midi aux **chapelles Médicis**, puis finissez la journée de l’autre côté du fleuve (voir le deuxième jour) ou simplement sur notre terrasse, à regarder la coupole changer de couleur.

## Deuxième jour : les Offices et l’Oltrarno

Réservez le premier créneau du matin aux **Offices**. Allez droit aux salles Botticelli avant l’arrivée des groupes, puis prenez votre temps : Léonard, le *Tondo Doni* de Michel-Ange, le Caravage, et les fenêtres sur l’Arno qui sont un tableau à elles seules.

Traversez le **Ponte Vecchio** vers l’**Oltrarno**, la rive des artisans. Flânez dans les rues autour de **Santo Spirito**, où relieurs, encadreurs et restaurateurs travaillent encore porte ouverte. Le **jardin de Boboli**, derrière le palais Pitti, est l’endroit idéal pour une promenade l’après-midi ; montez tout en haut pour la vue sur la ville.

Au coucher du soleil, montez à **San Miniato al Monte**, au-dessus de la Piazzale Michelangelo. C’est l’une des plus belles églises romanes d’Italie, et en début de soirée les moines y chantent les vêpres en grégorien (les horaires sont affichés à la porte). Redescendez ensuite prendre un *aperitivo* sur la piazza Santo Spirito.

## Troisième jour : David, Donatello et Santa Croce

Le **David** de Michel-Ange vit à la **Galleria dell’Accademia**, et il vaut la file d’attente – qu’un billet horodaté vous épargne. Si vous l’avez déjà vu, consacrez plutôt la matinée au **Bargello**, le musée de la sculpture, où le *David* en bronze de Donatello et le jeune *Bacchus* de Michel-Ange partagent un palais à cour intérieure, avec bien moins de visiteurs. Tout près, les cellules du **couvent de San Marco** sont peintes des fresques de Fra Angelico, une dans chaque cellule de moine.

Gardez l’après-midi pour notre quartier : la basilique **Santa Croce**, l’école du cuir dans son cloître et une glace chez Vivoli. Notre [guide de Santa Croce](/fr/blog/santa-croce-neighbourhood-guide) vous dit tout.

## Conseils pratiques

- La plupart des musées d’État, dont les Offices et l’Accademia, sont **fermés le lundi**. Organisez-vous en conséquence.
- Réservez avant le voyage les billets horodatés pour la coupole, les Offices et l’Accademia ; le reste se décide sur place.
- Florence a des fontaines publiques d’eau potable, certaines même d’eau gazeuse. Emportez une gourde.
- Dans les églises, épaules et genoux doivent être couverts. Un foulard léger dans le sac règle la question.
""",
    },
}
