"""Italian (Italy and Ticino)."""

from .model import Language

LANGUAGE = Language(
    code="it",
    ocr_codes=("ita",),
    frequent_words=frozenset(
        "il lo gli di del della delle che con è sono al dei questo questa gentile sua suo vostro nostro "
        "alla nel cordiali saluti importo fattura".split()
    ),
    months=(
        ("gennaio", "genn.", "gen."),
        ("febbraio", "febbr.", "feb."),
        ("marzo", "mar."),
        ("aprile", "apr."),
        ("maggio", "magg.", "mag."),
        ("giugno", "giu."),
        ("luglio", "lug."),
        ("agosto", "ago."),
        ("settembre", "sett.", "set."),
        ("ottobre", "ott."),
        ("novembre", "nov."),
        ("dicembre", "dic."),
    ),
    day_first=True,
    ordinals=("º", "°"),
    id_stems={
        "invoice": ("fattura",),
        "customer": ("cliente",),
        "account": ("conto",),
        "order": ("ordine",),
        "contract": ("contratto",),
        "policy": ("polizza",),
        "booking": ("prenotazione",),
        "case": ("pratica", "sinistro", "protocollo"),
        "member": ("socio", "tessera"),
        "personnel": ("matricola", "dipendente"),
        "delivery": ("ddt", "bolla"),
        "tracking": ("spedizione",),
    },
    id_words={
        "case": ("riferimento", "rif.", "vs. rif.", "ns. rif."),
        "personnel": ("matricola",),
        "social": ("matricola inps", "posizione inps"),
        "account": ("pod", "pdr", "matricola contatore"),
        "tax": ("partita iva", "p. iva", "p.iva", "c.f."),
    },
    id_suffixes_dotted=("n.",),
    number_first_words=("n°", "nº", "n.", "numero", "num.", "codice", "cod."),
    number_first_connectors=("della", "dello", "del", "di"),
    number_first_stems={
        "fattura": "invoice", "cliente": "customer", "conto": "account", "ordine": "order",
        "contratto": "contract", "polizza": "policy", "prenotazione": "booking", "pratica": "case",
        "sinistro": "case", "riferimento": "case", "protocollo": "case", "socio": "member", "tessera": "member",
        "fiscale": "tax", "partita iva": "tax", "matricola": "personnel", "dipendente": "personnel",
        "spedizione": "tracking", "biglietto": "ticket", "volo": "flight", "ddt": "delivery",
        "contatore": "account",
    },
    stamp_words=("stampato il", "data di stampa", "scansionato il",
                 # draft stamps ("BOZZA v2 – versione del 23 novembre 2019")
                 "versione del", "bozza"),
    stamp_openers=("ricevuto il", "pervenuto il", "acquisito il", "inviato:", "scansione",
                   "copia per i vostri archivi", "duplicato"),
    phone_words=("telefono", "cellulare", "cell."),
    salutations=("gentile", "gentili", "egregio", "egregia", "spettabile", "buongiorno", "salve", "caro", "cara"),
    version_words=("versione", "revisione", "rivisto", "rivista", "aggiornato", "aggiornata", "modificato", "modificata", "vigore", "valido"),
    page_words=("pagina", "pag."),
    page_of=("di",),
    financial_words=("importo", " iva", "i.v.a.", "imponibile", "prezzo"),
    route_words=("andata", "ritorno", "tratta"),
    # "da Roma a Milano".  Not "per" ("da Roma per Milano" is rare, "per" in prose everywhere).
    route_from=("da",),
    route_to=("a",),
    service_words=("volo", "treno"),
    # Trenitalia's Frecce as printed on tickets.  Not "FR" (see French), not "REG"/"RV" (rarely printed
    # with their numbers).
    train_codes=("Frecciarossa", "Frecciargento", "Frecciabianca"),
    not_codes=("IVA", "SRL", "SPA"),
    weekdays=("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"),
    not_places=("il", "lo", "la",
                "gli", "le", "signor", "signora"),
    street_types_before=("via", "viale", "piazza", "p.zza", "corso", "largo", "vicolo", "piazzale", "strada",
                         "contrada", "località", "lungomare"),
    small_words=("di", "del", "della", "dei", "degli", "delle", "dello", "la", "il", "lo", "e"),
)
