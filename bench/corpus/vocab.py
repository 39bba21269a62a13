"""Word lists for the synthetic corpus (German and English).

Everything here is plain data. German nouns carry their gender as a prefix
(``m:``, ``f:``, ``n:``) so the text generator can inflect articles.
"""

from __future__ import annotations


def _w(text: str) -> list[str]:
    return text.split()


DE_FIRST = _w(
    "Anna Andreas Birgit Bernd Claudia Christian Doris Dieter Elke Erik Frank Friederike Gabriele Günter "
    "Hannah Helmut Ingrid Jürgen Jana Jonas Katrin Klaus Lena Lukas Martina Markus Nicole Norbert Petra "
    "Paul Renate Ralf Sabine Stefan Tanja Thomas Ursula Uwe Vanessa Volker Wiebke Wolfgang Yvonne Züleyha "
    "Sören Jörg Bärbel Käthe Mehmet Ayşe Dragan Oksana Marek Björn Gisela Heike Till Leonie Malte Fynn"
)
DE_LAST = _w(
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter "
    "Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner "
    "Krause Meier Lehmann Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller "
    "Weiß Jung Hahn Vogel Friedrich Keller Günther Frank Berger Winkler Roth Beck Lorenz Baumann Franke "
    "Albrecht Schuster Simon Ludwig Böhm Winter Kraus Martin Schumacher Krämer Vogt Stein Jäger Otto Sommer "
    "Groß Seidel Heinrich Brandt Haas Schreiber Graf Dietrich Ziegler Kuhn Kühn Pohl Engel Horn Busch Bergmann "
    "Yılmaz Kowalski Nowak Petrović Öztürk Große-Wilde Ebersbächer Straßburger"
)
EN_FIRST = _w(
    "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan "
    "Joseph Jessica Thomas Sarah Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark Margaret Oliver "
    "Amelia Harry Isla George Ava Noah Emily Jack Sophie Leo Grace Arthur Chloe Priya Rahul Siobhan Niamh "
    "Callum Fiona Hamish Aisha Omar Wei Mei"
)
EN_LAST = _w(
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Wilson "
    "Anderson Taylor Thomas Moore Jackson White Harris Clark Lewis Robinson Walker Young Allen King Wright "
    "Scott Hill Green Adams Baker Nelson Carter Mitchell Roberts Turner Phillips Campbell Parker Evans "
    "Edwards Collins Stewart Morris Murphy Cook Rogers Patel Khan O'Brien McAllister Fitzgerald Okafor "
    "Nakamura Lindqvist Hughes Price Bennett Wood Barnes Ross Henderson Coleman Jenkins Perry Powell"
)
DE_CITIES = [
    ("10115", "Berlin"), ("20095", "Hamburg"), ("80331", "München"), ("50667", "Köln"),
    ("60311", "Frankfurt am Main"), ("70173", "Stuttgart"), ("40213", "Düsseldorf"), ("44135", "Dortmund"),
    ("45127", "Essen"), ("04109", "Leipzig"), ("28195", "Bremen"), ("01067", "Dresden"),
    ("30159", "Hannover"), ("90402", "Nürnberg"), ("47051", "Duisburg"), ("44787", "Bochum"),
    ("42103", "Wuppertal"), ("33602", "Bielefeld"), ("53111", "Bonn"), ("48143", "Münster"),
    ("76133", "Karlsruhe"), ("68159", "Mannheim"), ("86150", "Augsburg"), ("65183", "Wiesbaden"),
    ("24103", "Kiel"), ("18055", "Rostock"), ("99084", "Erfurt"), ("55116", "Mainz"), ("93047", "Regensburg"),
    ("79098", "Freiburg im Breisgau"), ("37073", "Göttingen"), ("97070", "Würzburg"), ("89073", "Ulm"),
    ("23552", "Lübeck"), ("06108", "Halle (Saale)"), ("39104", "Magdeburg"), ("66111", "Saarbrücken"),
    ("14467", "Potsdam"), ("87435", "Kempten (Allgäu)"), ("83022", "Rosenheim"), ("26122", "Oldenburg"),
]
EN_CITIES = [
    ("EC1A 1BB", "London"), ("M1 1AE", "Manchester"), ("B1 1BB", "Birmingham"), ("LS1 4AP", "Leeds"),
    ("G1 1XQ", "Glasgow"), ("EH1 1YZ", "Edinburgh"), ("BS1 4DJ", "Bristol"), ("L1 8JQ", "Liverpool"),
    ("CB2 1TN", "Cambridge"), ("OX1 2JD", "Oxford"), ("CF10 1EP", "Cardiff"), ("BT1 5GS", "Belfast"),
    ("NY 10001", "New York"), ("MA 02108", "Boston"), ("IL 60601", "Chicago"), ("CA 94103", "San Francisco"),
    ("WA 98101", "Seattle"), ("TX 78701", "Austin"), ("D02 X285", "Dublin"), ("1012 JS", "Amsterdam"),
]
DE_STREETS = _w(
    "Hauptstraße Bahnhofstraße Schulstraße Gartenstraße Dorfstraße Bergstraße Lindenstraße Kirchstraße "
    "Goethestraße Schillerweg Am_Markt Industriestraße Parkallee Mühlenweg Rosenweg Birkenweg Feldstraße "
    "Friedrich-Ebert-Straße Kastanienallee Tannenweg Ringstraße Wiesenstraße Eichendorffstraße Königsallee "
    "Hafenstraße Uferweg Am_Stadtgraben Lessingstraße Heinrich-Heine-Platz Sonnenhang Brückenstraße"
)
EN_STREETS = _w(
    "High_Street Station_Road Church_Lane Main_Street Park_Road Victoria_Road Green_Lane Manor_Road "
    "Kings_Road Queen_Street Mill_Lane Elm_Avenue Oak_Drive Market_Square Riverside_Walk Chapel_Street "
    "Broadway Maple_Avenue Lincoln_Road Harbour_View York_Street Castle_Hill"
)
DE_ORG_CORE = _w(
    "Nordlicht Sonnenberg Rheintal Alpen Hansa Elbe Weser Spree Taunus Harz Eifel Schwarzwald Bodensee "
    "Kranich Adler Falken Eichen Linden Blau Grün Stern Kompass Leuchtturm Brücken Mühlen Quelle Horizont "
    "Meridian Phönix Atlas Prisma Vektor Delta Kontor Löwen Greif Bären Donau Isar Main Mosel"
)
DE_ORG_TRADE = _w(
    "Haustechnik Elektro Sanitär Immobilien Versicherung Verlag Logistik Software Steuerberatung "
    "Rechtsanwälte Druckerei Autohaus Bau Dach Gartenbau Medizintechnik Apotheke Optik Reisen "
    "Telekommunikation Energie Hausverwaltung Möbel Computer Umzüge Gebäudereinigung Catering Akustik"
)
DE_LEGAL = ["GmbH", "GmbH", "AG", "GmbH & Co. KG", "e.K.", "OHG", "KG", "UG (haftungsbeschränkt)"]
EN_ORG_CORE = _w(
    "Northgate Riverside Summit Bluebell Oakridge Harbour Pinnacle Crescent Meadow Granite Silverline "
    "Evergreen Beacon Ironbridge Lighthouse Keystone Redwood Thistle Kestrel Brightwater Cobalt Falcon"
)
EN_ORG_TRADE = _w(
    "Plumbing Electrical Property Insurance Publishing Logistics Software Accountants Solicitors Printing "
    "Motors Building Roofing Landscaping Medical Pharmacy Opticians Travel Telecom Energy Lettings "
    "Furniture Computing Removals Cleaning Catering Acoustics Consulting Analytics"
)
EN_LEGAL = ["Ltd", "Ltd", "LLC", "Inc.", "plc", "LLP", "Group Ltd"]
DE_BANKS = [
    ("Sparkasse Rheintal", "37050198", "COLSDE33"), ("Volksbank Mittelhessen", "51390000", "VBMHDE5F"),
    ("Commerzbank", "20040000", "COBADEFFXXX"), ("Deutsche Bank", "10070000", "DEUTDEBBXXX"),
    ("Postbank", "44010046", "PBNKDEFF"), ("ING", "50010517", "INGDDEFFXXX"),
    ("DKB", "12030000", "BYLADEM1001"), ("GLS Bank", "43060967", "GENODEM1GLS"),
    ("Hamburger Sparkasse", "20050550", "HASPDEHHXXX"), ("Stadtsparkasse München", "70150000", "SSKMDEMMXXX"),
]
EN_BANKS = [
    ("Barclays", "BARC", "BARCGB22"), ("Lloyds Bank", "LOYD", "LOYDGB2L"), ("HSBC UK", "HBUK", "HBUKGB4B"),
    ("NatWest", "NWBK", "NWBKGB2L"), ("Santander UK", "ABBY", "ABBYGB2L"), ("Monzo", "MONZ", "MONZGB2L"),
]

# --- topic vocabulary -------------------------------------------------------------------------
DE_TOPICS = {
    "haus": "m:Heizkessel f:Heizungsanlage f:Wartung m:Schornstein n:Dach f:Fassade m:Wasserschaden "
    "f:Dachrinne m:Estrich n:Fenster f:Sanierung f:Abnahme m:Kostenvoranschlag n:Gutachten m:Brenner "
    "f:Wärmepumpe m:Heizkörper n:Treppenhaus f:Badsanierung m:Fliesenleger",
    "versicherung": "m:Versicherungsschutz f:Police m:Schadenfall f:Selbstbeteiligung m:Beitrag "
    "f:Deckungssumme m:Leistungsantrag n:Formular f:Kündigung m:Tarif f:Haftpflicht f:Hausratversicherung "
    "m:Nachtrag f:Schadenmeldung n:Sachverständigengutachten f:Regulierung",
    "it": "m:Server f:Software n:Update f:Lizenz m:Zugang n:Passwort f:Datensicherung m:Wartungsvertrag "
    "n:Ticket f:Schnittstelle m:Speicherplatz f:Migration n:Netzwerk m:Drucker n:Betriebssystem "
    "f:Firewall m:Arbeitsplatzrechner n:Benutzerkonto",
    "gesundheit": "m:Befund f:Untersuchung f:Überweisung n:Rezept f:Behandlung m:Termin f:Therapie "
    "n:Medikament f:Blutuntersuchung m:Laborwert f:Physiotherapie n:Röntgenbild f:Nachsorge m:Heilplan "
    "f:Krankmeldung n:Attest",
    "finanzen": "n:Konto f:Überweisung m:Kredit f:Tilgung m:Zinssatz f:Bürgschaft m:Dauerauftrag "
    "f:Lastschrift n:Depot f:Anlage m:Freistellungsauftrag f:Kontoführung m:Verwendungszweck "
    "f:Steuererklärung m:Vorauszahlungsbescheid",
    "auto": "n:Fahrzeug f:Hauptuntersuchung m:Reifenwechsel f:Inspektion m:Kilometerstand f:Zulassung "
    "m:Leasingvertrag m:Unfallschaden n:Ersatzteil f:Werkstatt m:Ölwechsel f:Bremsanlage m:Zahnriemen",
    "schule": "f:Klassenfahrt m:Elternabend n:Zeugnis f:Projektwoche m:Stundenplan f:Anmeldung "
    "f:Betreuung m:Förderverein m:Wandertag f:Schulkonferenz m:Förderunterricht n:Schulfest f:Hausaufgabe",
    "arbeit": "m:Arbeitsvertrag f:Elternzeit m:Urlaubsantrag f:Dienstreise f:Fortbildung "
    "f:Zeiterfassung m:Arbeitsplatz f:Gehaltserhöhung f:Probezeit m:Betriebsrat f:Zielvereinbarung "
    "n:Mitarbeitergespräch",
    "recht": "f:Klage n:Verfahren m:Bescheid m:Widerspruch f:Frist f:Vollmacht m:Vergleich f:Akte "
    "f:Verhandlung n:Urteil m:Schriftsatz f:Stellungnahme f:Kostennote",
    "reise": "f:Buchung f:Unterkunft m:Flug f:Stornierung f:Reiseversicherung n:Hotel m:Transfer "
    "f:Reiseleitung n:Visum f:Anzahlung m:Reisepreis",
    "telekom": "m:Anschluss m:Router m:Mobilfunkvertrag f:Rufnummer f:Datenflatrate f:Portierung "
    "m:Glasfaseranschluss f:Störung m:Techniker f:Vertragslaufzeit",
    "verein": "m:Mitgliedsbeitrag f:Satzung f:Mitgliederversammlung m:Antrag f:Genehmigung m:Vorstand "
    "f:Spendenquittung n:Sommerfest m:Kassenbericht",
}
EN_TOPICS = {
    "house": "boiler heating_system service chimney roof facade water_damage gutter window renovation "
    "inspection estimate survey heat_pump radiator stairwell bathroom_refit",
    "insurance": "cover policy claim excess premium sum_insured claim_form cancellation tariff liability "
    "home_contents_policy endorsement loss_adjuster settlement",
    "it": "server software update licence access password backup maintenance_contract ticket interface "
    "storage_quota migration network printer operating_system firewall workstation user_account",
    "health": "finding examination referral prescription treatment appointment therapy medication "
    "blood_test lab_value physiotherapy x-ray follow-up sick_note certificate",
    "finance": "account transfer loan repayment interest_rate guarantee standing_order direct_debit "
    "portfolio investment statement tax_return payment_reference overdraft",
    "car": "vehicle MOT tyre_change service mileage registration lease accident_damage spare_part "
    "garage oil_change brake_system timing_belt",
    "school": "school_trip parents'_evening report project_week timetable enrolment after-school_club "
    "PTA sports_day school_council tutoring homework",
    "work": "employment_contract parental_leave leave_request business_trip training timesheet "
    "workstation pay_rise probation works_council objective appraisal",
    "legal": "claim proceedings notice appeal deadline power_of_attorney settlement file hearing "
    "judgment submission statement fee_note",
    "travel": "booking accommodation flight cancellation travel_insurance hotel transfer itinerary "
    "visa deposit fare",
    "telecom": "connection router mobile_contract phone_number data_plan number_port fibre_line "
    "outage engineer minimum_term",
}
DE_PART = _w(
    "geprüft übermittelt abgeschlossen bearbeitet erfasst bestätigt freigegeben zurückgestellt verlängert "
    "angepasst berechnet ausgeführt dokumentiert eingereicht storniert abgelehnt genehmigt aktualisiert "
    "beauftragt verschoben weitergeleitet archiviert korrigiert vereinbart installiert ausgetauscht"
)
DE_ADJ = _w(
    "neu aktuell vorläufig endgültig jährlich monatlich zusätzlich vollständig gesamt bisherig zuständig "
    "vereinbart beigefügt erforderlich technisch vertraglich schriftlich ordentlich außerordentlich "
    "geplant letzt nächst regelmäßig individuell gesetzlich laufend offen fristgerecht"
)
DE_ADV = _w(
    "bereits rechtzeitig vollständig leider zeitnah umgehend ausnahmsweise voraussichtlich kurzfristig "
    "ordnungsgemäß erneut zwischenzeitlich planmäßig nachträglich ebenfalls inzwischen grundsätzlich "
    "fristgerecht schriftlich telefonisch"
)
DE_INF = _w(
    "prüfen übermitteln bestätigen einreichen anpassen aktualisieren ersetzen begleichen kündigen "
    "verlängern dokumentieren erstatten beantragen vorlegen aufbewahren überweisen nachreichen melden"
)
EN_PART = _w(
    "reviewed forwarded completed processed recorded confirmed approved postponed extended adjusted "
    "calculated carried_out documented submitted cancelled declined granted updated commissioned "
    "rescheduled archived corrected agreed installed replaced"
)
EN_ADJ = _w(
    "new current provisional final annual monthly additional complete total previous responsible agreed "
    "enclosed required technical contractual written ordinary extraordinary planned last next regular "
    "individual statutory ongoing outstanding timely revised"
)
EN_ADV = _w(
    "already promptly fully unfortunately shortly immediately exceptionally probably at_short_notice "
    "properly again meanwhile as_planned subsequently also in_principle in_writing by_phone"
)
EN_INF = _w(
    "review submit confirm send adjust update replace settle cancel extend document refund apply_for "
    "provide retain transfer report return"
)
DE_MONTHS = _w("Januar Februar März April Mai Juni Juli August September Oktober November Dezember")
EN_MONTHS = _w("January February March April May June July August September October November December")
DE_WEEKDAYS = _w("Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag")
EN_WEEKDAYS = _w("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")

DE_ITEMS = [
    ("Wartung Gasbrennwerttherme", 189.0), ("Anfahrtspauschale", 45.0), ("Arbeitsstunde Monteur", 68.5),
    ("Dichtungssatz", 12.9), ("Hosting Paket M (monatlich)", 14.99), ("Domain .de", 1.2),
    ("SSL-Zertifikat", 4.9), ("Büromaterial Sortiment", 37.45), ("Toner schwarz", 89.9),
    ("Fensterreinigung", 120.0), ("Treppenhausreinigung", 95.0), ("Gartenpflege", 140.0),
    ("Steuerberatung lt. StBVV", 310.0), ("Lohnbuchhaltung je Mitarbeiter", 28.0), ("Porto", 3.7),
    ("Softwarelizenz Office", 12.5), ("Support-Pauschale", 250.0), ("Kopierpapier A4 500 Bl.", 5.49),
    ("Mobilfunk Grundgebühr", 29.99), ("Datenvolumen Zusatzpaket", 9.99), ("Winterdienst", 85.0),
    ("Kleinmaterial", 18.6), ("Entsorgungspauschale", 25.0), ("Beratung Telefon (15 min)", 22.5),
]
EN_ITEMS = [
    ("Boiler service", 95.0), ("Call-out charge", 60.0), ("Labour (per hour)", 55.0),
    ("Hosting plan Pro (monthly)", 19.99), ("Domain renewal .co.uk", 9.5), ("SSL certificate", 6.0),
    ("Office supplies bundle", 42.3), ("Black toner cartridge", 74.99), ("Window cleaning", 45.0),
    ("Communal area cleaning", 80.0), ("Garden maintenance", 110.0), ("Bookkeeping (monthly)", 150.0),
    ("Payroll per employee", 12.0), ("Postage", 2.85), ("Software licence seat", 11.0),
    ("Support retainer", 300.0), ("A4 paper ream", 4.75), ("Mobile line rental", 24.0),
    ("Extra data add-on", 8.0), ("Gritting service", 70.0), ("Sundries", 15.4), ("Waste disposal", 30.0),
]
DE_SHOP_ITEMS = _w(
    "Vollmilch Butter Brötchen Bananen Äpfel Kaffee Tomaten Nudeln Reis Joghurt Käse Gurke Mineralwasser "
    "Spülmittel Zahnpasta Olivenöl Haferflocken Eier Müsli Orangensaft Brot Schokolade Paprika Kartoffeln"
)
EN_SHOP_ITEMS = _w(
    "Milk Butter Bread_rolls Bananas Apples Coffee Tomatoes Pasta Rice Yoghurt Cheddar Cucumber "
    "Sparkling_water Washing-up_liquid Toothpaste Olive_oil Porridge_oats Eggs Granola Orange_juice Bread"
)
MED_DE = _w(
    "Hypertonie Diabetes_mellitus_Typ_2 Lumbago Gastritis Bronchitis Migräne Sinusitis Tendinitis "
    "Vorhofflimmern Hypothyreose Gonarthrose Meniskusläsion Anämie Dermatitis Tinnitus"
)
MED_EN = _w(
    "hypertension type_2_diabetes lower_back_pain gastritis bronchitis migraine sinusitis tendinitis "
    "atrial_fibrillation hypothyroidism knee_osteoarthritis meniscus_tear anaemia dermatitis tinnitus"
)
DRUGS = _w("Ramipril Metformin Ibuprofen Pantoprazol Amoxicillin Sumatriptan Bisoprolol L-Thyroxin Diclofenac")
STATIONS = [
    "München Hbf", "Berlin Hbf", "Hamburg Hbf", "Köln Hbf", "Frankfurt(Main)Hbf", "Stuttgart Hbf",
    "Leipzig Hbf", "Dresden Hbf", "Hannover Hbf", "Nürnberg Hbf", "Düsseldorf Hbf", "Bremen Hbf",
    "Freiburg(Breisgau) Hbf", "Mannheim Hbf", "Karlsruhe Hbf", "Erfurt Hbf", "Kassel-Wilhelmshöhe",
]
AIRPORTS = [
    ("BSK", "Biskra"), ("LON", "London (all airports)"), ("LHR", "London Heathrow"), ("FRA", "Frankfurt"),
    ("MUC", "Munich"), ("BER", "Berlin Brandenburg"), ("HAM", "Hamburg"), ("DUB", "Dublin"),
    ("AMS", "Amsterdam"), ("CDG", "Paris Charles de Gaulle"), ("MAD", "Madrid"), ("FCO", "Rome Fiumicino"),
    ("EDI", "Edinburgh"), ("MAN", "Manchester"), ("VIE", "Vienna"), ("ZRH", "Zurich"), ("PMI", "Palma"),
]
