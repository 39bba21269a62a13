"""Spanish."""

from .model import Language

LANGUAGE = Language(
    code="es",
    ocr_codes=("spa",),
    frequent_words=frozenset(
        "el los las del y que por para con una su sus usted es al este esta nos muy estimado estimada "
        "señor señora atentamente importe factura".split()
    ),
    months=(
        ("enero", "ene."),
        ("febrero", "feb."),
        ("marzo", "mar."),
        ("abril", "abr."),
        ("mayo", "may."),
        ("junio", "jun."),
        ("julio", "jul."),
        ("agosto", "ago."),
        ("septiembre", "setiembre", "sept.", "sep.", "set."),
        ("octubre", "oct."),
        ("noviembre", "nov."),
        ("diciembre", "dic."),
    ),
    day_first=True,
    ordinals=("º", "°"),
    date_connectors=("de", "del"),
    id_stems={
        "invoice": ("factura",),
        "customer": ("cliente", "abonado"),
        "account": ("cuenta",),
        "order": ("pedido",),
        "contract": ("contrato",),
        "policy": ("póliza", "poliza"),
        "booking": ("reserva", "localizador"),
        "case": ("expediente", "siniestro"),
        "member": ("socio", "afiliado"),
        "delivery": ("albarán", "albaran"),
        "tracking": ("envío", "envio", "seguimiento"),
    },
    id_words={
        "case": ("referencia", "ref.", "su referencia", "nuestra referencia"),
        "tax": ("nif", "cif", "n.i.f.", "c.i.f."),
        "social": ("nuss", "naf"),
        "account": ("cups",),
    },
    id_suffixes=("nº", "n°"),
    number_first_words=("n°", "nº", "no.", "número", "numero", "núm.", "num.", "referencia", "código", "codigo"),
    number_first_connectors=("de la", "del", "de"),
    number_first_stems={
        "factura": "invoice", "cliente": "customer", "abonado": "customer", "cuenta": "account",
        "pedido": "order", "contrato": "contract", "póliza": "policy", "reserva": "booking",
        "expediente": "case", "siniestro": "case", "referencia": "case", "socio": "member",
        "afiliado": "member", "afiliación": "social", "seguridad social": "social", "empleado": "personnel",
        "albarán": "delivery", "envío": "tracking", "seguimiento": "tracking", "billete": "ticket",
        "extracto": "statement", "vuelo": "flight", "identificación fiscal": "tax", "trabajador": "personnel",
        "afiliación a la seguridad social": "social", "contador": "account",
    },
    stamp_words=("impreso el", "fecha de impresión", "fecha de impresion", "escaneado el",
                 # draft stamps ("BORRADOR v2 – versión del 5 de marzo de 2024")
                 "versión del", "version del", "borrador"),
    stamp_openers=("recibido el", "enviado:", "entrada", "digitalizado el", "escaneado", "copia para su archivo",
                   "duplicado"),
    phone_words=("teléfono", "telefono", "tlf", "móvil", "movil"),
    salutations=("estimado", "estimada", "estimados", "estimadas", "hola", "muy señor", "muy señora", "distinguido", "distinguida"),
    version_words=("versión", "revisado", "revisada", "revisión", "actualizado", "actualizada", "modificado", "modificada", "vigente", "válido"),
    page_words=("página", "pagina", "pág."),
    page_of=("de",),
    financial_words=("importe total", " iva", "i.v.a.", "a pagar", "precio"),
    route_words=("ida", "vuelta", "trayecto"),
    # "de Madrid a Sevilla", "desde Madrid hasta Sevilla".  "de" and "a" are the most frequent words of
    # Spanish prose: read only as strictly as English "from X to Y" (both places capitalised, blanks
    # only, no article or month first: "de Enero a Marzo" is a period).
    route_from=("desde", "de"),
    route_to=("a", "hasta"),
    service_words=("vuelo", "tren"),
    # Renfe's categories.  Not "MD" (Media Distancia: also a doctor's title and Maryland).
    train_codes=("AVE", "AVLO", "ALVIA"),
    not_codes=("IVA", "NIF", "CIF", "DNI"),
    weekdays=("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    not_places=("el", "la", "los", "las",
                "señor", "señora", "don", "doña"),
    street_types_before=("calle", "c.", "c/", "avenida", "avda.", "paseo", "plaza", "pza.", "carrer", "camino", "ronda",
                         "travesía", "glorieta", "carretera", "vía"),
    small_words=("de", "la", "el", "los", "las", "del", "y"),
)
