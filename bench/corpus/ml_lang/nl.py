"""Dutch (the Netherlands and Flanders)."""

from . import Lang

LANG = Lang(
    code="nl",
    name="Dutch",
    months=("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
            "november", "december"),
    months_abbr=("jan.", "feb.", "mrt.", "apr.", "mei", "jun.", "jul.", "aug.", "sep.", "okt.", "nov.", "dec."),
    weekdays=("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"),
    day_one="1",
    date_words=("{day} {month} {year}", "{weekday} {day} {month} {year}", "{day} {mon} {year}"),
    month_year=("{month} {year}", "maand {month} {year}"),
    date_numeric=("{dd}-{mm}-{yyyy}", "{d}-{m}-{yyyy}", "{dd}/{mm}/{yyyy}"),
    amounts=((".", ",", "€ {n}"), (".", ",", "€ {n}"), (".", ",", "EUR {n}"), (".", ",", "{n} EUR"),
             (".", ",", "{n} €")),
    labels={
        "invoice_no": ("Factuurnummer", "Factuurnr.", "Nummer factuur"),
        "invoice_date": ("Factuurdatum", "Datum factuur"),
        "customer_no": ("Klantnummer", "Klantnr.", "Debiteurnummer"),
        "contract_no": ("Contractnummer", "Overeenkomstnummer"),
        "policy_no": ("Polisnummer", "Polisnr."),
        "order_no": ("Ordernummer", "Bestelnummer"),
        "booking_ref": ("Boekingsnummer", "Reserveringsnummer"),
        "reference": ("Ons kenmerk", "Uw kenmerk", "Kenmerk"),
        "tax_no": ("Btw-nummer", "BTW-nr."),
        "social_no": ("BSN", "Burgerservicenummer"),
        "employee_no": ("Personeelsnummer", "Personeelsnr."),
        "due_date": ("Vervaldatum", "Uiterste betaaldatum"),
        "period": ("Periode", "Tijdvak"),
        "date": ("Datum", "Dagtekening"),
        "total": ("Totaal", "Te betalen", "Totaalbedrag"),
        "meter_no": ("Meternummer", "EAN-code"),
    },
    id_shapes={
        "invoice_no": "{y}{n6}", "customer_no": "{n7}", "contract_no": "{n9}", "policy_no": "{AB}{n8}",
        "order_no": "{n8}", "booking_ref": "{AB}{n6}", "reference": "{AB}/{n5}", "tax_no": "NL{n9}B01",
        "social_no": "{n9}", "employee_no": "{n5}", "meter_no": "{n12}",
    },
    streets=("{name}straat {n}", "{name}weg {n}", "{name}laan {n}", "{name}plein {n}", "{name}gracht {n}",
             "{name}straat {n}a", "{name}kade {n}"),
    street_names=("Kerk", "Dorps", "Molen", "School", "Stations", "Heren", "Keizers", "Prinsen", "Hoofd", "Wilhelmina",
                  "Juliana", "Beatrix", "Nieuwe", "Oude", "Markt", "Linden", "Eiken", "Zuid", "Noord", "Vondel"),
    places=(("1015 CJ", "Amsterdam"), ("3011 AD", "Rotterdam"), ("2511 BT", "Den Haag"), ("3511 LX", "Utrecht"),
            ("5611 AZ", "Eindhoven"), ("9711 LM", "Groningen"), ("6811 DK", "Arnhem"), ("2011 VH", "Haarlem"),
            ("6211 CK", "Maastricht"), ("7511 JE", "Enschede"), ("2000", "Antwerpen"), ("9000", "Gent"),
            ("3000", "Leuven"), ("8000", "Brugge"), ("4811 XJ", "Breda"), ("8011 CW", "Zwolle")),
    first_names=("Jan", "Sanne", "Pieter", "Lotte", "Daan", "Emma", "Bram", "Femke", "Joost", "Anouk", "Sem",
                 "Marieke", "Thijs", "Eva", "Ruud", "Ilse", "Koen", "Noor", "Wim", "Fleur", "Hendrik", "Saskia",
                 "Mohammed", "Fatima", "Gert", "Els"),
    last_names=("de Jong", "Jansen", "de Vries", "van den Berg", "van Dijk", "Bakker", "Janssen", "Visser", "Smit",
                "Meijer", "de Boer", "Mulder", "de Groot", "Bos", "Vos", "Peters", "Hendriks", "van Leeuwen",
                "Dekker", "Brouwer", "de Wit", "Dijkstra", "Smits", "de Graaf", "van der Meer", "Kok", "Jacobs",
                "Willems", "Claes", "Maes", "Vermeulen", "Yilmaz"),
    org_cores=("Delta", "Noorder", "Polder", "Zeeland", "Oranje", "Tulp", "Waterland", "Kennemer", "Veluwe",
               "Rijnmond", "Amstel", "Brabant", "Horizon", "Lindeboom", "Duin"),
    org_forms=("{core} B.V.", "{core} Groep B.V.", "{last} & Zonen", "{core} Diensten B.V.", "Stichting {core}",
               "{core} N.V.", "Bureau {last}"),
    org_kinds={
        "utility": ("{core} Energie B.V.", "Waterbedrijf {core}", "{core} Stroom"),
        "insurer": ("{core} Verzekeringen N.V.", "Onderlinge {core}", "{core} Schadeverzekering"),
        "bank": ("{core} Bank N.V.", "Spaarbank {core}", "Rabobank {city}"),
        "landlord": ("Woonstichting {core}", "Vastgoedbeheer {last}", "{core} Wonen"),
        "employer": ("{core} B.V.", "{last} Techniek B.V.", "Groep {core}"),
        "transport": ("NS Reizigers", "{core} Rail", "Eurostar"),
        "company": ("{core} B.V.", "{last} & Zonen", "{core} Handel", "Bureau {last}"),
    },
    phones=("+31 20 {n3} {n4}", "010 {n3} {n4}", "06 {n4} {n4}", "+32 9 {n3} {n2} {n2}"),
    stamps=("Afgedrukt op {date} om {time}", "Gescand op {date} om {time}", "Ontvangen op {date}",
            "Geprint op {date}", "KOPIE", "Duplicaat", "Kopie voor uw administratie", "Ingescand {date}"),
    scan_headers=("Gescand {date} {time}", "Fax van {date} {time} blz. 1", "Binnengekomen {date}"),
    text={
        "dear": "Geachte heer, mevrouw,",
        "dear_named": "Beste {first} {last},",
        "regards": "Wij vertrouwen erop u hiermee voldoende te hebben geïnformeerd. Met vriendelijke groet,",
        "regards_short": "Met vriendelijke groet,",
        "place_date": "{city}, {date}",
        "subject": "Betreft",
        "page": "Pagina {i} van {n}",
        "invoice": "FACTUUR",
        "invoice_intro": "Hartelijk dank voor uw opdracht. Hieronder vindt u een overzicht van de geleverde "
                         "diensten en producten.",
        "invoice_pay": "Wij verzoeken u het bedrag van {amount} voor {date} over te maken onder vermelding van "
                       "{ref}.",
        "invoice_terms": "Op al onze leveringen zijn onze algemene voorwaarden van toepassing, gedeponeerd bij de "
                         "Kamer van Koophandel. Betaling dient te geschieden binnen dertig dagen na factuurdatum. "
                         "Bij overschrijding van de betaaltermijn zijn wij gerechtigd de wettelijke rente en "
                         "incassokosten in rekening te brengen. Geleverde goederen blijven ons eigendom tot volledige "
                         "betaling.",
        "col_item": "Omschrijving", "col_qty": "Aantal", "col_price": "Prijs per stuk", "col_amount": "Bedrag",
        "subtotal": "Subtotaal", "vat": "Btw 21%", "total_due": "Totaal te betalen",
        "payslip": "Loonstrook",
        "gross_pay": "Brutoloon",
        "net_pay": "Netto uit te betalen",
        "payslip_note": "Bewaar deze loonstrook goed; u heeft haar nodig voor uw belastingaangifte. Vragen over "
                        "uw salaris kunt u stellen aan de afdeling personeelszaken.",
        "employer_cost": "Werkgeverslasten",
        "statement": "Rekeningafschrift",
        "opening": "Beginsaldo per",
        "closing": "Eindsaldo per",
        "statement_text": "Controleer de bij- en afschrijvingen op dit afschrift en meld onjuistheden zo snel "
                          "mogelijk. Uw tegoeden vallen onder het depositogarantiestelsel tot een bedrag van "
                          "honderdduizend euro per rekeninghouder per bank.",
        "utility": "Jaarafrekening elektriciteit",
        "schedule": "Termijnbedrag",
        "meter_old": "Beginstand", "meter_new": "Eindstand", "consumption": "Verbruik (kWh)",
        "unit_price": "Leveringstarief per kWh", "standing": "Vaste leveringskosten", "advance": "Maandelijks termijnbedrag",
        "utility_text": "Heeft u een klacht, neem dan eerst contact op met onze klantenservice. Komen wij er samen "
                        "niet uit, dan kunt u uw klacht voorleggen aan de Geschillencommissie Energie. Tips om "
                        "energie te besparen vindt u op onze website.",
        "insurer": "Uw woonverzekering",
        "insurer_body": "Hierbij ontvangt u het nieuwe polisblad van uw verzekering. Uw dekking blijft ongewijzigd. "
                        "Is uw situatie veranderd, bijvoorbeeld door een verbouwing, laat het ons dan weten zodat "
                        "wij uw verzekering kunnen aanpassen.",
        "insurer_risk": "Risicoadres",
        "insurer_footer": "Op deze verzekering zijn de algemene polisvoorwaarden en de bijzondere voorwaarden van "
                          "toepassing. U kunt de verzekering na het eerste contractjaar dagelijks opzeggen met een "
                          "opzegtermijn van één maand. Bij het aangaan van de verzekering vragen wij persoonsgegevens; "
                          "deze worden verwerkt volgens de gedragscode Verwerking Persoonsgegevens Financiële "
                          "Instellingen. U heeft recht op inzage, correctie en verwijdering van uw gegevens. Bent u "
                          "niet tevreden over onze dienstverlening, dan kunt u zich wenden tot het Klachteninstituut "
                          "Financiële Dienstverlening. Wij staan onder toezicht van De Nederlandsche Bank en de "
                          "Autoriteit Financiële Markten en zijn ingeschreven bij de Kamer van Koophandel.",
        "reminder": "Betalingsherinnering",
        "reminder_body": "Volgens onze administratie is factuur {ref} van {date} ter waarde van {amount} nog niet "
                         "door ons ontvangen.",
        "reminder_more": "Wij verzoeken u het openstaande bedrag binnen veertien dagen te voldoen. Heeft u inmiddels "
                         "betaald, dan kunt u deze herinnering als niet verzonden beschouwen.",
        "tenancy": "Huurnota",
        "receipt": "Betalingsbewijs huur",
        "rent": "Kale huur", "charges": "Servicekosten",
        "tenancy_body": "De verhuurder bevestigt hierbij de ontvangst van de hierboven vermelde huur en "
                        "servicekosten over de genoemde periode.",
        "premises": "Adres gehuurde woning",
        "letter": "Maandelijkse nieuwsbrief",
        "letter_body": "Met genoegen sturen wij u onze nieuwsbrief. Hierin leest u het laatste nieuws van onze "
                       "vereniging, het programma van de activiteiten en de data van de volgende bijeenkomsten. "
                       "Uw suggesties zijn altijd welkom.",
        "ticket": "Treinkaartje",
        "departure": "Vertrek", "arrival": "Aankomst", "coach": "Rijtuig", "seat": "Zitplaats", "passenger": "Reiziger",
        "train": "Trein",
        "ticket_terms": "Dit vervoerbewijs is persoonlijk en alleen geldig voor de vermelde trein, datum en "
                        "zitplaats. Kosteloos te annuleren tot drie dagen voor vertrek.",
        "mail_from": "Van", "mail_to": "Aan", "mail_sent": "Verzonden",
        "mail_disclaimer": "Dit bericht is uitsluitend bestemd voor de geadresseerde en kan vertrouwelijke "
                           "informatie bevatten. Heeft u het per vergissing ontvangen, meld dit dan aan de afzender "
                           "en verwijder het bericht.",
        "fax": "FAXBERICHT", "fax_pages": "Aantal pagina's",
        "confidential": "Vertrouwelijk: uitsluitend bestemd voor de geadresseerde.",
        "draft": "CONCEPT v{v} – versie van {date}",
        "contract": "OVEREENKOMST VAN OPDRACHT",
        "article": "Artikel {n}",
    },
    items=("Jaarlijks onderhoud", "Arbeidsloon per uur", "Voorrijkosten", "Reserveonderdeel", "Installatie",
           "Softwarelicentie", "Inktcartridge", "Papier A4 pak", "Schoonmaak kantoor", "Juridisch advies",
           "Training één dag", "Webhosting", "Huur apparatuur", "Verzendkosten"),
    pay_rows=("Salaris", "Overwerk", "Vakantietoeslag", "Reiskostenvergoeding"),
    deduction_rows=("Loonheffing", "Pensioenpremie", "Premie WW", "Premie WIA", "Zorgverzekeringswet"),
    tx_words=("Overboeking", "Incasso", "Betaalautomaat", "Geldautomaat", "iDEAL betaling", "Kosten bank"),
    doc_titles=("Verklaring", "Verslag vergadering", "Afspraakbevestiging", "Offerte", "Brief", "Mededeling",
                "Uitnodiging", "Informatiebrief", "Certificaat", "Prijsopgave"),
    notes=("{name} terugbellen over dossier {num}.", "Pakket bij de buren afgegeven, zending {num}.",
           "{amount} contant ontvangen. {name}", "Afspraak verzet naar {weekday} {date}.",
           "Sleutel ligt in de brievenbus. {name}", "Kopie voor het dossier, {date}."),
    tesseract="nld",
    iban_country="NL",
    grammar={
        "subjects": ("Onze klantenservice", "De behandelend medewerker", "De directie", "Ons technisch team",
                     "Het secretariaat", "Het bestuur", "Ons kantoor", "De afdeling financiën", "De projectleider",
                     "Onze partner", "De gemeente", "De administratie"),
        "verbs": ("heeft ontvangen", "zal beoordelen", "bevestigt", "heeft doorgestuurd", "stuurt u",
                  "heeft goedgekeurd", "bereidt", "herinnert u aan", "heeft geregistreerd", "onderzoekt",
                  "werkt bij", "biedt u aan"),
        "objects": ("uw verzoek om terugbetaling", "het aanvraagdossier", "de gevraagde documenten", "het jaarverslag",
                    "uw klacht", "de uitgebreide offerte", "de nieuwe overeenkomst", "de planning van de werkzaamheden",
                    "uw adreswijziging", "het overzicht van de activiteiten", "de bewijsstukken",
                    "het verslag van de vergadering", "uw inschrijving", "de creditnota", "het onderhoudscontract",
                    "de algemene voorwaarden"),
        "tails": ("zo spoedig mogelijk.", "voor het einde van de maand.", "conform uw verzoek.",
                  "zoals afgesproken in ons gesprek.", "na ontvangst van uw akkoord.", "voor de betreffende periode.",
                  "onder voorbehoud van goedkeuring.", "ter informatie.", "op de gebruikelijke wijze.",
                  "in tweevoud.", "per aangetekende post.", "met excuses voor de vertraging."),
        "legal": ("Deze overeenkomst wordt aangegaan voor de duur van één jaar en wordt stilzwijgend verlengd.",
                  "Elke partij kan de overeenkomst schriftelijk opzeggen met een termijn van drie maanden.",
                  "De opdrachtnemer voert de werkzaamheden uit naar beste inzicht en vermogen.",
                  "Alle prijzen zijn exclusief btw en worden jaarlijks geïndexeerd.",
                  "Wijzigingen van deze overeenkomst zijn alleen geldig als zij schriftelijk zijn overeengekomen.",
                  "De opdrachtgever verstrekt tijdig alle gegevens die nodig zijn voor de uitvoering.",
                  "De aansprakelijkheid van de opdrachtnemer is beperkt tot directe schade.",
                  "Partijen houden alle uitgewisselde informatie vertrouwelijk.",
                  "Geschillen worden voorgelegd aan de bevoegde rechter in het arrondissement van de opdrachtnemer.",
                  "Op deze overeenkomst is Nederlands recht van toepassing.",
                  "Geen van de partijen is aansprakelijk in geval van overmacht.",
                  "Facturen dienen binnen dertig dagen na factuurdatum te worden voldaan."),
    },
    routes=("Heenreis: {a} - {b}", "Traject: {a} naar {b}", "Reis van {a} naar {b}"),
    route_prose=("Geopend van maandag tot vrijdag.", "Een bericht van De {last} naar de klant."),
)
