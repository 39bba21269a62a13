"""Dutch (Netherlands and Flanders)."""

from .model import Language

LANGUAGE = Language(
    code="nl",
    ocr_codes=("nld",),
    frequent_words=frozenset(
        "het een van en op voor met niet zijn wij u uw ons onze bij aan dit deze naar heeft worden wordt "
        "graag geachte hierbij factuur bedrag".split()
    ),
    months=(
        ("januari", "jan."),
        ("februari", "febr.", "feb."),
        ("maart", "mrt."),
        ("april", "apr."),
        ("mei",),
        ("juni", "jun."),
        ("juli", "jul."),
        ("augustus", "aug."),
        ("september", "sept.", "sep."),
        ("oktober", "okt."),
        ("november", "nov."),
        ("december", "dec."),
    ),
    day_first=True,
    ordinals=("e", "ste", "de"),
    id_stems={
        "invoice": ("factuur", "nota"),
        "customer": ("klant", "klanten", "debiteur", "debiteuren"),
        "account": ("rekening", "meter", "ean"),
        "order": ("order", "bestel", "bestelling"),
        "contract": ("contract", "overeenkomst"),
        "policy": ("polis",),
        "booking": ("boeking", "boekings", "reservering", "reserverings"),
        "case": ("dossier", "referentie", "zaak", "schade"),
        "tax": ("btw", "fiscaal"),
        "social": ("burgerservice", "sofi"),
        "member": ("lid", "lidmaatschap", "leden"),
        "personnel": ("personeels", "medewerker", "werknemer"),
        "delivery": ("leverings", "pakbon"),
        "tracking": ("zending", "pakket"),
        "statement": ("afschrift",),
        "register": ("kvk",),
    },
    number_first_words=("nummer", "nr."),
    number_first_stems={
        "factuur": "invoice", "klant": "customer", "polis": "policy", "order": "order", "contract": "contract",
        "dossier": "case", "lid": "member", "boeking": "booking", "rekening": "account",
    },
    id_words={
        "case": ("kenmerk", "uw kenmerk", "ons kenmerk", "referentie"),
        "social": ("bsn",),
        "register": ("kvk",),
    },
    stamp_words=("afgedrukt op", "geprint op", "gescand op", "afdrukdatum",
                 # draft stamps ("CONCEPT v2 – versie van 12 juli 2021")
                 "versie van", "ontwerp"),
    stamp_openers=("ontvangen op", "binnengekomen", "verzonden:", "ingescand", "gescand", "faxbericht",
                   "kopie voor uw administratie", "duplicaat"),
    phone_words=("telefoon", "mobiel", "gsm"),
    salutations=("geachte", "beste", "dag", "hallo"),
    version_words=("versie", "bijgewerkt", "gewijzigd", "herzien", "geldig", "geactualiseerd"),
    page_words=("pagina", "blz."),
    page_of=("van",),
    financial_words=("bedrag", "totaal", "btw", "te betalen", "prijs"),
    route_words=("heenreis", "terugreis", "traject"),
    # "van Amsterdam naar Utrecht".  Not "tot" ("van maandag tot vrijdag", "van 1 tot 5": ranges).
    # (Known gap: "van Den Haag naar ..." is not read, German's not_places has "den"; "Traject: Den Haag - X" is.)
    route_from=("van",),
    route_to=("naar",),
    service_words=("vlucht", "trein"),
    # NS's Intercity direct (IC is in German's list).  Not "SPR" (Sprinter: its numbers are rarely printed).
    train_codes=("ICD",),
    not_codes=("BTW", "KVK"),
    weekdays=("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"),
    not_places=("de", "het",
                "een", "meneer", "mevrouw", "heer"),
    street_suffixes=("straat", "laan", "weg", "plein", "gracht", "kade", "singel", "dijk", "dreef", "steeg",
                     "steenweg", "baan", "pad", "hof", "markt"),
    small_words=("van", "de", "der", "den", "het", "t"),
)
