"""French (France, Belgium, Switzerland, Luxembourg)."""

from .model import Language

LANGUAGE = Language(
    code="fr",
    ocr_codes=("fra",),
    frequent_words=frozenset(
        "le la les et est une pour dans sur avec vous nous votre vos notre nos pas qui que au aux ce cette "
        "sont madame monsieur veuillez agréer salutations montant facture".split()
    ),
    months=(
        ("janvier", "janv."),
        ("février", "févr.", "fév."),
        ("mars",),
        ("avril", "avr."),
        ("mai",),
        ("juin",),
        ("juillet", "juil."),
        ("août",),
        ("septembre", "sept."),
        ("octobre", "oct."),
        ("novembre", "nov."),
        ("décembre", "déc."),
    ),
    day_first=True,
    ordinals=("er", "re"),
    blank_thousands=True,
    id_stems={
        "invoice": ("facture",),
        "customer": ("client", "abonné"),
        "account": ("compte",),
        "order": ("commande",),
        "contract": ("contrat",),
        "policy": ("police", "sociétaire"),
        "booking": ("réservation",),
        "case": ("dossier", "sinistre"),
        "member": ("adhérent", "membre"),
        "delivery": ("livraison",),
        "tracking": ("colis", "suivi"),
    },
    id_words={
        "case": ("votre référence", "notre référence", "vos références", "nos références", "v/réf.", "n/réf.",
                 "réf.", "référence"),
        "register": ("siret", "siren", "rcs"),
        "personnel": ("matricule",),
        "tax": ("tva intracommunautaire",),
    },
    id_suffixes=("n°", "nº", "№"),
    number_first_words=("n°", "nº", "no", "numéro", "numero", "num.", "réf.", "ref.", "référence", "reference"),
    number_first_connectors=("de la", "de l'", "d'", "de", "du", "des"),
    number_first_stems={
        "facture": "invoice", "client": "customer", "abonné": "customer", "compte": "account",
        "commande": "order", "bon de commande": "order", "contrat": "contract", "police": "policy",
        "sociétaire": "policy", "réservation": "booking", "dossier": "case", "sinistre": "case",
        "référence": "case", "adhérent": "member", "membre": "member", "sécurité sociale": "social",
        "tva": "tax", "tva intracommunautaire": "tax", "siret": "register", "siren": "register",
        "matricule": "personnel", "salarié": "personnel", "livraison": "delivery", "bon de livraison": "delivery",
        "suivi": "tracking", "colis": "tracking", "billet": "ticket", "relevé": "statement", "vol": "flight",
        "fiscal": "tax", "avs": "social", "compteur": "account", "pdl": "account",
    },
    stamp_words=("imprimé le", "imprime le", "date d'impression", "numérisé le", "numerise le", "scanné le",
                 "télécopie", "duplicata",
                 # draft stamps ("PROJET v2 – version du 5 mars 2024"): a new draft date is no other contract
                 "version du", "brouillon"),
    stamp_openers=("reçu le", "recu le", "édité le", "edite le", "arrivée le", "arrivee le", "envoyé :",
                   "envoye :", "document numérisé", "copie pour vos dossiers"),
    phone_words=("tél", "téléphone", "portable"),
    salutations=("madame", "monsieur", "mesdames", "messieurs", "bonjour", "cher", "chère", "chers"),
    version_words=("version", "révisé", "révisée", "révision", "modifié", "modifiée", "actualisé", "actualisée", "vigueur", "valable"),
    page_words=("page",),
    page_of=("sur",),
    financial_words=("montant", "tva", "ttc", "solde", "prix", "à payer"),
    route_words=("aller", "retour", "trajet"),
    # "de Paris à Lyon".  Not "a" (the verb: "de Paris a Lyon" with the accent lost is read as Spanish's
    # or Italian's "a"), not "au"/"pour" ("de Jean pour Marie": people, as often as places).
    route_from=("de",),
    route_to=("à",),
    # "vol" is also theft ("déclaration de vol"), but a service word counts only before a code and a
    # number ("vol AF 1234")
    service_words=("vol", "train"),
    # TGV (INOUI, OUIGO: its brands as printed on tickets) and TER.  Not "FR": "FR 12 345 678 901" is a
    # French VAT number, "FR 1234" a Ryanair flight (read after "vol").
    train_codes=("TGV", "INOUI", "OUIGO", "TER"),
    not_codes=("TVA", "TTC", "RIB", "EDF", "CAF", "SAS"),
    weekdays=("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    not_places=("le", "la", "les",
                "du", "monsieur", "madame"),
    street_types_before=("rue", "avenue", "av.", "boulevard", "bd", "allée", "chemin", "impasse", "place", "quai",
                         "route", "cours", "passage", "square", "chaussée", "rond-point"),
    small_words=("de", "la", "le", "les", "du", "des", "d'", "l'", "et", "sur", "en"),
)
