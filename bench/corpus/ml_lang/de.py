"""German (Germany, Austria, Switzerland): the control, built from the same templates as the others."""

from . import Lang

LANG = Lang(
    code="de",
    name="German",
    months=("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
            "November", "Dezember"),
    months_abbr=("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."),
    weekdays=("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    day_one="1",
    date_words=("{day}. {month} {year}", "{weekday}, {day}. {month} {year}", "{day}. {mon} {year}"),
    month_year=("{month} {year}", "Monat {month} {year}"),
    date_numeric=("{dd}.{mm}.{yyyy}", "{d}.{m}.{yyyy}", "{dd}.{mm}.{yy}"),
    amounts=((".", ",", "{n} €"), (".", ",", "{n} EUR"), (".", ",", "€ {n}"), ("'", ".", "CHF {n}")),
    labels={
        "invoice_no": ("Rechnungsnummer", "Rechnungs-Nr.", "Rechnung Nr."),
        "invoice_date": ("Rechnungsdatum", "Datum der Rechnung"),
        "customer_no": ("Kundennummer", "Kunden-Nr.", "Kd.-Nr."),
        "contract_no": ("Vertragsnummer", "Vertrags-Nr."),
        "policy_no": ("Versicherungsschein-Nr.", "Versicherungsnummer"),
        "order_no": ("Bestellnummer", "Auftragsnummer"),
        "booking_ref": ("Buchungsnummer", "Auftragsnummer"),
        "reference": ("Unser Zeichen", "Ihr Zeichen", "Aktenzeichen"),
        "tax_no": ("USt-IdNr.", "Steuernummer"),
        "social_no": ("Sozialversicherungsnummer", "SV-Nummer"),
        "employee_no": ("Personalnummer", "Pers.-Nr."),
        "due_date": ("Fällig am", "Zahlbar bis"),
        "period": ("Abrechnungszeitraum", "Zeitraum"),
        "date": ("Datum", "Ausgestellt am"),
        "total": ("Rechnungsbetrag", "Gesamtbetrag", "Auszahlungsbetrag"),
        "meter_no": ("Zählernummer", "Marktlokation"),
    },
    id_shapes={
        "invoice_no": "RE-{y}-{n5}", "customer_no": "{n8}", "contract_no": "VN{n7}", "policy_no": "{AB}{n8}",
        "order_no": "B{n7}", "booking_ref": "{AB}{AB}{n2}", "reference": "{AB}/{n4}/{y2}", "tax_no": "DE{n9}",
        "social_no": "{n2} {n6} {AB} {n3}", "employee_no": "{n5}", "meter_no": "{n11}",
    },
    streets=("{name}straße {n}", "{name}str. {n}", "{name}weg {n}", "{name}platz {n}", "{name}allee {n}",
             "{name}straße {n}a", "{name}gasse {n}"),
    street_names=("Garten", "Haupt", "Bahnhof", "Schul", "Kirch", "Goethe", "Schiller", "Berg", "Wald", "Linden",
                  "Mühlen", "Ring", "Park", "Friedrich", "Rosen", "Birken", "Markt", "Post", "Feld", "Eichen"),
    places=(("10115", "Berlin"), ("20095", "Hamburg"), ("80331", "München"), ("50667", "Köln"),
            ("60311", "Frankfurt am Main"), ("70173", "Stuttgart"), ("40213", "Düsseldorf"), ("04109", "Leipzig"),
            ("28195", "Bremen"), ("01067", "Dresden"), ("30159", "Hannover"), ("90402", "Nürnberg"),
            ("66111", "Saarbrücken"), ("1010", "Wien"), ("8001", "Zürich"), ("3011", "Bern")),
    first_names=("Anna", "Andreas", "Birgit", "Bernd", "Claudia", "Christian", "Doris", "Dieter", "Elke", "Frank",
                 "Gabriele", "Günter", "Hannah", "Jürgen", "Katrin", "Klaus", "Lena", "Lukas", "Martina", "Markus",
                 "Petra", "Stefan", "Ursula", "Wolfgang", "Sören", "Bärbel"),
    last_names=("Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz",
                "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz",
                "Zimmermann", "Braun", "Krüger", "Hartmann", "Lange", "Werner", "Krause", "Lehmann", "König",
                "Huber", "Kaiser", "Fuchs", "Yılmaz"),
    org_cores=("Nord", "Süd", "Alpen", "Rhein", "Elbe", "Main", "Ostsee", "Taunus", "Spree", "Isar", "Harz",
               "Weser", "Donau", "Eifel", "Allgäu"),
    org_forms=("{core} GmbH", "{core} AG", "{last} & Söhne", "{core} Service GmbH", "{core} Gruppe",
               "{core} Beratung", "{last} KG"),
    org_kinds={
        "utility": ("Stadtwerke {city}", "{core} Energie GmbH", "{core} Strom AG"),
        "insurer": ("{core} Versicherung AG", "{core} Versicherungsverein a.G.", "{core} Lebensversicherung"),
        "bank": ("{core} Bank AG", "Sparkasse {city}", "Volksbank {core}"),
        "landlord": ("Hausverwaltung {last} GmbH", "Wohnungsbau {core}", "{core} Immobilien"),
        "employer": ("{core} GmbH", "{last} Technik GmbH", "{core} Gruppe"),
        "transport": ("DB Fernverkehr AG", "{core} Bahn", "Flixtrain"),
        "company": ("{core} GmbH", "{last} & Söhne", "{core} Handel", "{last} KG"),
    },
    phones=("+49 30 {n4} {n4}", "089 {n3} {n4}", "0176 {n4} {n3}", "+41 44 {n3} {n2} {n2}"),
    stamps=("Gedruckt am {date} um {time}", "Gescannt am {date} {time}", "Eingang {date}", "Ausdruck vom {date}",
            "KOPIE", "Duplikat", "Kopie für Ihre Unterlagen", "Druckdatum: {date}"),
    scan_headers=("Scan {date} {time}", "Fax vom {date} {time} S. 1", "Eingegangen {date}"),
    text={
        "dear": "Sehr geehrte Damen und Herren,",
        "dear_named": "Guten Tag {first} {last},",
        "regards": "Für Rückfragen stehen wir Ihnen gerne zur Verfügung. Mit freundlichen Grüßen",
        "regards_short": "Mit freundlichen Grüßen",
        "place_date": "{city}, den {date}",
        "subject": "Betreff",
        "page": "Seite {i} von {n}",
        "invoice": "RECHNUNG",
        "invoice_intro": "Vielen Dank für Ihren Auftrag. Nachstehend finden Sie die Aufstellung der erbrachten "
                         "Leistungen.",
        "invoice_pay": "Bitte überweisen Sie den Betrag von {amount} bis zum {date} unter Angabe von {ref}.",
        "invoice_terms": "Zahlungsbedingungen: zahlbar innerhalb von dreißig Tagen ohne Abzug. Bei Zahlungsverzug "
                         "berechnen wir Verzugszinsen in gesetzlicher Höhe sowie eine Pauschale von vierzig Euro. "
                         "Die gelieferte Ware bleibt bis zur vollständigen Bezahlung unser Eigentum. Es gelten unsere "
                         "allgemeinen Geschäftsbedingungen.",
        "col_item": "Bezeichnung", "col_qty": "Menge", "col_price": "Einzelpreis", "col_amount": "Gesamt",
        "subtotal": "Nettobetrag", "vat": "zzgl. 19 % USt.", "total_due": "Rechnungsbetrag",
        "payslip": "Entgeltabrechnung",
        "gross_pay": "Gesamtbrutto",
        "net_pay": "Auszahlungsbetrag",
        "payslip_note": "Bitte bewahren Sie diese Abrechnung sorgfältig auf; Sie benötigen sie für Ihre "
                        "Steuererklärung und gegenüber Behörden. Fragen zu Ihrer Abrechnung richten Sie bitte an die "
                        "Personalabteilung.",
        "employer_cost": "Arbeitgeberanteile",
        "statement": "Kontoauszug",
        "opening": "Alter Kontostand am",
        "closing": "Neuer Kontostand am",
        "statement_text": "Bitte prüfen Sie die Buchungen dieses Auszugs und erheben Sie Einwendungen unverzüglich. "
                          "Guthaben sind nach Maßgabe des Einlagensicherungsgesetzes bis einhunderttausend Euro je "
                          "Einleger geschützt.",
        "utility": "Stromrechnung",
        "schedule": "Abschlagsplan",
        "meter_old": "Zählerstand alt", "meter_new": "Zählerstand neu", "consumption": "Verbrauch (kWh)",
        "unit_price": "Arbeitspreis je kWh", "standing": "Grundpreis", "advance": "Monatlicher Abschlag",
        "utility_text": "Bei Fragen oder Beschwerden wenden Sie sich bitte an unseren Kundenservice. Zur Beilegung "
                        "von Streitigkeiten kann ein Verfahren bei der Schlichtungsstelle Energie beantragt werden. "
                        "Tipps zum Energiesparen finden Sie auf unserer Internetseite.",
        "insurer": "Ihre Hausratversicherung",
        "insurer_body": "Wir informieren Sie, dass sich Ihr Vertrag um ein weiteres Jahr zu den Bedingungen der "
                        "beiliegenden Beitragsrechnung verlängert. Ihr Versicherungsschutz bleibt unverändert. Hat "
                        "sich Ihre Situation geändert, teilen Sie uns dies bitte mit, damit wir Ihren Schutz anpassen "
                        "können.",
        "insurer_risk": "Versicherungsort",
        "insurer_footer": "Nach dem Versicherungsvertragsgesetz können Sie den Vertrag zum Ablauf des "
                          "Versicherungsjahres mit einer Frist von drei Monaten in Textform kündigen. Ihre "
                          "personenbezogenen Daten verarbeiten wir zur Durchführung des Vertrages nach der "
                          "Datenschutz-Grundverordnung; Sie haben das Recht auf Auskunft, Berichtigung, Löschung und "
                          "Widerspruch, das Sie gegenüber unserem Datenschutzbeauftragten ausüben können. Bei "
                          "Beschwerden können Sie sich an den Versicherungsombudsmann wenden. Wir unterliegen der "
                          "Aufsicht der Bundesanstalt für Finanzdienstleistungsaufsicht und sind im Handelsregister "
                          "eingetragen. Vorsitzender des Aufsichtsrates und Vorstand sind im Impressum genannt.",
        "reminder": "Zahlungserinnerung",
        "reminder_body": "Nach unseren Unterlagen ist die Rechnung {ref} vom {date} über {amount} bisher nicht "
                         "beglichen.",
        "reminder_more": "Bitte überweisen Sie den offenen Betrag innerhalb von acht Tagen. Sollten Sie die Zahlung "
                         "inzwischen veranlasst haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.",
        "tenancy": "Mietzahlungsaufforderung",
        "receipt": "Mietquittung",
        "rent": "Grundmiete", "charges": "Nebenkostenvorauszahlung",
        "tenancy_body": "Der Vermieter bestätigt den Erhalt der oben genannten Miete und Nebenkosten für den "
                        "angegebenen Zeitraum.",
        "premises": "Anschrift der Mietwohnung",
        "letter": "Monatlicher Mitgliederbrief",
        "letter_body": "Gerne senden wir Ihnen unseren Mitgliederbrief. Darin finden Sie die Neuigkeiten unseres "
                       "Vereins, das Programm der Veranstaltungen und die Termine der nächsten Treffen. Ihre "
                       "Anregungen sind uns jederzeit willkommen.",
        "ticket": "Fahrkarte",
        "departure": "Abfahrt", "arrival": "Ankunft", "coach": "Wagen", "seat": "Platz", "passenger": "Reisender",
        "train": "Zug",
        "ticket_terms": "Die Fahrkarte ist personengebunden und nur für den angegebenen Zug, das Datum und den "
                        "Platz gültig. Kostenloser Umtausch bis drei Tage vor Abfahrt.",
        "mail_from": "Von", "mail_to": "An", "mail_sent": "Gesendet",
        "mail_disclaimer": "Diese E-Mail enthält vertrauliche Informationen und ist nur für den Empfänger bestimmt. "
                           "Wenn Sie sie irrtümlich erhalten haben, informieren Sie bitte den Absender und löschen "
                           "Sie die Nachricht.",
        "fax": "TELEFAX", "fax_pages": "Seitenzahl",
        "confidential": "Vertraulich – nur für den Empfänger bestimmt.",
        "draft": "ENTWURF v{v} – Stand {date}",
        "contract": "DIENSTLEISTUNGSVERTRAG",
        "article": "§ {n}",
    },
    items=("Jahreswartung", "Arbeitsstunde", "Anfahrtspauschale", "Ersatzteil", "Installation", "Softwarelizenz",
           "Tintenpatrone", "Kopierpapier A4", "Büroreinigung", "Rechtsberatung", "Schulung ein Tag", "Webhosting",
           "Gerätemiete", "Versandkosten"),
    pay_rows=("Grundgehalt", "Überstunden", "Zulage", "Fahrtkostenzuschuss"),
    deduction_rows=("Lohnsteuer", "Krankenversicherung", "Rentenversicherung", "Arbeitslosenversicherung",
                    "Pflegeversicherung"),
    tx_words=("Gutschrift", "Lastschrift", "Kartenzahlung", "Bargeldauszahlung", "Überweisung", "Kontoführung"),
    doc_titles=("Bescheinigung", "Protokoll der Sitzung", "Terminbestätigung", "Angebot", "Schreiben", "Mitteilung",
                "Einladung", "Information", "Zertifikat", "Kostenvoranschlag"),
    notes=("{name} zurückrufen wegen Vorgang {num}.", "Paket beim Nachbarn abgegeben, Sendung {num}.",
           "{amount} bar erhalten. {name}", "Termin verschoben auf {weekday}, {date}.",
           "Schlüssel liegt im Briefkasten. {name}", "Kopie für die Akte, {date}."),
    tesseract="deu",
    iban_country="DE",
    grammar={
        "subjects": ("Unser Kundenservice", "Der zuständige Sachbearbeiter", "Die Geschäftsleitung",
                     "Unser technisches Team", "Das Sekretariat", "Der Vorstand", "Unsere Filiale",
                     "Die Buchhaltung", "Der Projektleiter", "Unser Partner", "Die Gemeinde", "Die Verwaltung"),
        "verbs": ("hat erhalten", "prüft", "bestätigt", "hat weitergeleitet", "sendet Ihnen", "hat genehmigt",
                  "bereitet vor", "erinnert Sie an", "hat erfasst", "bearbeitet", "aktualisiert", "bietet Ihnen an"),
        "objects": ("Ihren Erstattungsantrag", "die Antragsunterlagen", "die angeforderten Dokumente",
                    "den Jahresbericht", "Ihre Beschwerde", "das ausführliche Angebot", "die neue Vereinbarung",
                    "den Bauzeitenplan", "Ihre Adressänderung", "die Übersicht der Aktivitäten", "die Belege",
                    "das Protokoll der Sitzung", "Ihre Anmeldung", "die Gutschrift", "den Wartungsvertrag",
                    "die allgemeinen Bedingungen"),
        "tails": ("so schnell wie möglich.", "bis zum Monatsende.", "wie gewünscht.", "wie im Gespräch vereinbart.",
                  "nach Eingang Ihrer Zustimmung.", "für den betreffenden Zeitraum.", "vorbehaltlich der Freigabe.",
                  "zu Ihrer Information.", "auf dem üblichen Weg.", "in zweifacher Ausfertigung.",
                  "per Einschreiben.", "mit der Bitte um Entschuldigung für die Verzögerung."),
        "legal": ("Dieser Vertrag wird für ein Jahr geschlossen und verlängert sich stillschweigend.",
                  "Jede Partei kann ihn schriftlich mit einer Frist von drei Monaten kündigen.",
                  "Der Auftragnehmer erbringt die Leistungen mit der gebotenen Sorgfalt.",
                  "Alle Preise verstehen sich zuzüglich Umsatzsteuer und werden jährlich angepasst.",
                  "Änderungen dieses Vertrages bedürfen der Schriftform.",
                  "Der Auftraggeber stellt alle für die Durchführung nötigen Informationen bereit.",
                  "Die Haftung des Auftragnehmers ist auf unmittelbare Schäden beschränkt.",
                  "Die Parteien behandeln alle ausgetauschten Informationen vertraulich.",
                  "Gerichtsstand ist der Sitz des Auftragnehmers.",
                  "Es gilt das Recht der Bundesrepublik Deutschland.",
                  "Keine Partei haftet im Fall höherer Gewalt.",
                  "Rechnungen sind innerhalb von dreißig Tagen nach Rechnungsdatum zu zahlen."),
    },
    routes=("Hinfahrt: {a} - {b}", "Strecke: {a} -> {b}", "Fahrt von {a} nach {b}", "Von: {a}\nNach: {b}"),
    route_prose=("Die Unterlagen wurden von Herrn {last} geprüft. Nach Rücksprache melden wir uns.", "Geöffnet von Montag bis Freitag."),
)
