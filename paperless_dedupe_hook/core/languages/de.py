"""German (also Austrian and Swiss German)."""

from .model import Language

LANGUAGE = Language(
    code="de",
    ocr_codes=("deu", "deu_frak", "frk"),
    frequent_words=frozenset(
        "der die das den dem des und ein eine mit für von zu ist sind nicht wir ihr ihre sie bitte rechnung "
        "datum summe betrag vom sehr geehrte grüßen".split()
    ),
    months=(
        ("januar", "jänner", "jan.", "jän."),
        ("februar", "feber", "febr.", "feb."),
        ("märz", "mär.", "mrz."),
        ("april", "apr."),
        ("mai",),
        ("juni", "jun."),
        ("juli", "jul."),
        ("august", "aug."),
        ("september", "sept.", "sep."),
        ("oktober", "okt."),
        ("november", "nov."),
        ("dezember", "dez."),
    ),
    day_first=True,
    id_stems={
        "invoice": ("rechnungs", "rechnung", "re", "rg", "beleg", "faktura"),
        "customer": ("kunden", "kd", "mandanten"),
        "account": ("konto", "vertragskonto"),
        "order": ("bestell", "bestellungs", "auftrags", "auftrag"),
        "contract": ("vertrags", "vertrag"),
        "policy": ("versicherungsschein", "versicherungs", "police", "policen", "versicherten"),
        "booking": ("buchungs", "reservierungs", "bestätigungs"),
        "ticket": ("ticket", "fahrschein", "fahrkarten"),
        "tracking": ("sendungs", "paket"),
        "tax": ("steuer", "ust-id", "ust", "umsatzsteuer-id", "st", "steuerident", "uid"),
        "personnel": ("personal", "pers", "mitarbeiter"),
        "member": ("mitglieds",),
        "flight": ("flug",),
        "delivery": ("lieferschein", "liefer", "lieferungs"),
        "register": ("handelsregister", "register"),
        "statement": ("kontoauszug", "auszug", "abrechnungs", "abrechnung"),
        "case": ("vorgangs", "vorgang", "schadens", "akten", "referenz", "transaktions", "kassenzeichen"),
    },
    id_words={
        "case": ("aktenzeichen", "az.", "unser zeichen", "ihr zeichen", "unser az.", "ihr az.",
                 "geschäftszeichen", "referenz", "kassenzeichen"),
        "booking": ("buchungsreferenz", "buchungscode"),
        "tax": ("ust-idnr.", "ust-id", "ustid", "steuer-id", "uid"),
        "register": ("hrb", "hra", "vr"),
    },
    id_suffixes=("nummer", "nr.", "kennung"),
    stamp_words=("gedruckt", "ausgedruckt", "druckdatum", "druckzeit", "ausdruck", "telefax", "gefaxt", "gescannt",
                 "scandatum", "eingang", "eingangsdatum", "eingangsstempel", "eingegangen", "empfangen", "abgerufen",
                 "heruntergeladen", "kopie für ihre unterlagen", "zweitschrift", "duplikat",
                 # version stamps of drafts: a new draft date is not a different contract
                 "entwurf", "fassung"),
    phone_words=("tel", "telefon", "fon", "mobil", "handy", "hotline", "fax", "telefax"),
    salutations=("sehr geehrte", "sehr geehrter", "hallo", "guten tag", "liebe", "lieber", "moin"),
    version_words=("stand", "gültig", "gültigkeit", "aktualisiert", "fassung", "überarbeitet", "geändert", "version"),
    page_words=("seite", "blatt", "s."),
    page_of=("von",),
    financial_words=("betrag", "summe", "gesamt", "netto", "brutto", "mwst", "saldo", "kontostand", "preis"),
    route_words=("hinfahrt", "hinflug", "hinreise", "hinweg", "rückfahrt", "rückflug", "rückreise", "rückweg",
                 "strecke", "route", "verbindung", "relation", "flug", "fahrt", "hin", "rück"),
    # "von Berlin nach München", also a form's labels: "Von: Berlin Hbf / Nach: München Hbf"
    route_from=("von",),
    route_to=("nach",),
    route_form_labels=True,
    route_range=("bis",),
    service_words=("flug", "zug"),
    # Deutsche Bahn's categories, and EuroCity, EuroNight and ÖBB's Nightjet
    train_codes=("ICE", "IC", "EC", "RE", "RB", "EN", "NJ"),
    not_codes=("KFZ", "PKW", "LKW", "BGB", "HGB"),
    weekdays=("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"),
    not_places=("seite",
                "der", "die", "das", "den", "dem", "ihnen", "uns",
                "herr", "herrn", "frau"),  # "von Herrn Koch geprüft. Nach ...": a person, not a place
    # (a German street before a five-digit postcode is read by _patterns.STREET; these are for
    # Austria's and Switzerland's four digits: "Kirchgasse 3, 1010 Wien", "Bahnhofstrasse 12, 8001 Zürich")
    street_suffixes=("straße", "strasse", "str.", "gasse", "weg", "platz", "allee", "ring", "damm", "ufer", "steig",
                     "graben", "markt", "gässli", "gässchen"),
    street_suffixes_need_postcode=True,
    street_prefixes=("Am", "Im", "Zum", "Zur", "An dem", "An den", "An der", "Auf dem", "Auf den", "Auf der",
                     "In dem", "In den", "In der", "Unter den"),
    small_words=("am", "im", "an", "der", "dem", "den", "zum", "zur", "auf"),
)
