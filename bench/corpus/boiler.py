"""Domain boilerplate for template series: the small print that makes real templates so alike.

Each series draws its own subset and order once, so two vendors' fine print differs while the
documents of one series share it word for word.
"""

from __future__ import annotations

import random

POOLS: dict[str, list[str]] = {
    "ticket_de": [
        "Fahrgastrechte: Bei einer Verspätung am Zielbahnhof ab 60 Minuten erhalten Sie eine Entschädigung von 25 % des Fahrpreises.",
        "Ab 120 Minuten Verspätung beträgt die Entschädigung 50 % des Fahrpreises.",
        "Die Zugbindung ist aufgehoben, wenn eine Verspätung von mindestens 20 Minuten am Zielbahnhof zu erwarten ist.",
        "Bitte beachten Sie, dass Sitzplatzreservierungen 15 Minuten nach Abfahrt verfallen, wenn der Platz nicht eingenommen wurde.",
        "Kinder unter 6 Jahren reisen kostenlos und benötigen kein Ticket.",
        "Fahrräder dürfen nur mit gültiger Fahrradkarte und Stellplatzreservierung mitgenommen werden.",
        "Das City-Ticket gilt am Start- und Zielort für eine Fahrt im Stadtverkehr.",
        "Umtausch und Erstattung sind über die Buchungsplattform oder in einem Reisezentrum möglich.",
        "Dieses Ticket wurde elektronisch erstellt und ist ohne Unterschrift gültig.",
        "Informationen zur Verarbeitung Ihrer Daten finden Sie in unseren Datenschutzhinweisen.",
        "Die Beförderung erfolgt auf Grundlage der Beförderungsbedingungen für Personen.",
        "Bei Zugausfall können Sie einen anderen Zug mit gleichem Ziel nutzen.",
    ],
    "ticket_en": [
        "Liquids in hand baggage must be in containers of 100 ml or less in a single clear resealable bag.",
        "Please arrive at the airport at least two hours before departure.",
        "Boarding closes 20 minutes before the scheduled departure time.",
        "Name changes are not permitted once the booking has been confirmed.",
        "Passengers with reduced mobility should contact us at least 48 hours before departure.",
        "Under Regulation (EC) 261/2004 you may be entitled to compensation in case of delay or cancellation.",
        "Checked baggage must not exceed 23 kg per piece unless an excess fee has been paid.",
        "Seats allocated at check-in may differ from seats selected at booking.",
        "This receipt is not valid for travel without a boarding pass.",
        "For our privacy notice and conditions of carriage please visit our website.",
        "Dangerous goods must not be carried in baggage.",
        "Travel insurance is recommended and not included in the fare.",
    ],
    "payslip_de": [
        "Bitte bewahren Sie diese Abrechnung sorgfältig auf; sie dient als Nachweis gegenüber Behörden und Banken.",
        "Die Abrechnung gilt als anerkannt, wenn nicht innerhalb von vier Wochen schriftlich widersprochen wird.",
        "Änderungen Ihrer Steuermerkmale werden automatisch über das ELStAM-Verfahren übernommen.",
        "Bitte teilen Sie Änderungen Ihrer Anschrift oder Bankverbindung umgehend der Personalabteilung mit.",
        "Die Beiträge zur Sozialversicherung wurden gemäß den geltenden Beitragssätzen berechnet.",
        "Der Resturlaub wird auf der Dezemberabrechnung ausgewiesen.",
        "Für Rückfragen erreichen Sie die Entgeltabrechnung unter der internen Durchwahl 214.",
        "Diese Bescheinigung wurde maschinell erstellt und ist ohne Unterschrift gültig.",
        "Vermögenswirksame Leistungen werden direkt an das angegebene Anlageinstitut überwiesen.",
        "Bei Abweichungen der Arbeitszeiterfassung wenden Sie sich bitte an Ihre Führungskraft.",
    ],
    "payslip_en": [
        "Please keep this payslip safe; you may need it as proof of income.",
        "Any queries about this payslip should be raised with Payroll within 28 days.",
        "Your tax code is issued by HM Revenue and Customs; contact them if you think it is wrong.",
        "Please notify HR of any change to your address or bank details.",
        "Pension contributions are made under a salary sacrifice arrangement where applicable.",
        "Holiday balance is shown on your self-service portal.",
        "This payslip has been produced electronically and does not require a signature.",
        "Overtime is paid one month in arrears.",
    ],
    "bank_de": [
        "Der Rechnungsabschluss erfolgt zum Ende eines jeden Kalenderquartals.",
        "Einwendungen gegen Rechnungsabschlüsse müssen innerhalb von sechs Wochen nach Zugang erhoben werden.",
        "Die Zinssätze für eingeräumte Kontoüberziehungen entnehmen Sie bitte unserem Preisaushang.",
        "Bitte beachten Sie unsere Hinweise zum Schutz vor Phishing: Wir fragen niemals nach Ihren Zugangsdaten.",
        "Kontoauszüge gelten als zugegangen, sobald sie im Postfach des Online-Bankings bereitgestellt wurden.",
        "Aktuelle Informationen zu Entgelten finden Sie im Preis- und Leistungsverzeichnis.",
        "Der Dispositionskredit wird Ihnen bis auf Weiteres eingeräumt.",
        "Bitte prüfen Sie regelmäßig Ihre Daueraufträge und Lastschriftmandate.",
        "Für Auslandsüberweisungen außerhalb des SEPA-Raums können zusätzliche Entgelte anfallen.",
        "Ihr persönlicher Berater ist werktags von 9 bis 18 Uhr für Sie erreichbar.",
        "Bitte beachten Sie, dass Gutschriften unter Vorbehalt des Eingangs erfolgen.",
        "Der Sollzinssatz für geduldete Überziehungen beträgt derzeit 11,75 % p. a.",
        "Lastschriften können innerhalb von acht Wochen ab Belastungsdatum zurückgegeben werden.",
        "Ihre Kreditkartenabrechnung erhalten Sie gesondert.",
        "Mit dem Online-Banking haben Sie Ihre Finanzen jederzeit im Blick.",
        "Unsere Allgemeinen Geschäftsbedingungen und Sonderbedingungen können Sie in jeder Filiale einsehen.",
        "Bitte bewahren Sie Ihre Kontoauszüge sorgfältig auf; sie sind für Ihre Steuererklärung von Bedeutung.",
        "Änderungen Ihrer Anschrift teilen Sie uns bitte unverzüglich mit.",
    ],
    "bank_en": [
        "Interest on credit balances is paid monthly.",
        "Arranged overdraft interest is charged at the rate shown in our tariff.",
        "We will never ask you for your full PIN or online banking password.",
        "If you have a complaint, please contact us; you may also refer it to the Financial Ombudsman Service.",
        "Please review your standing orders and direct debits regularly.",
        "Statements are available in online banking for seven years.",
        "Fees for international payments are shown in our price list.",
        "Your relationship manager is available Monday to Friday, 9am to 5pm.",
        "Payments into your account are credited subject to clearance.",
        "The Direct Debit Guarantee protects you if an error is made in the payment of a Direct Debit.",
        "Your card statement will be sent to you separately.",
        "Keep your statements safe; you may need them for your tax return.",
        "Please tell us promptly about any change of address.",
        "Our terms and conditions are available in branch and online.",
        "You can manage your account at any time using our mobile app.",
    ],
    "privacy_de": [
        "Wir verarbeiten Ihre personenbezogenen Daten zur Begründung, Durchführung und Beendigung des Versicherungsvertrags.",
        "Rechtsgrundlage der Verarbeitung ist Art. 6 Abs. 1 lit. b DSGVO.",
        "Gesundheitsdaten verarbeiten wir nur mit Ihrer ausdrücklichen Einwilligung nach Art. 9 Abs. 2 lit. a DSGVO.",
        "Zur Risikoprüfung und Schadenbearbeitung können Daten an Rückversicherer übermittelt werden.",
        "Ihre Daten werden gelöscht, sobald sie für die genannten Zwecke nicht mehr erforderlich sind.",
        "Gesetzliche Aufbewahrungsfristen nach Handels- und Steuerrecht betragen bis zu zehn Jahre.",
        "Sie haben das Recht auf Auskunft, Berichtigung, Löschung und Einschränkung der Verarbeitung.",
        "Sie können der Verarbeitung zu Zwecken der Direktwerbung jederzeit widersprechen.",
        "Sie haben das Recht, sich bei einer Datenschutzaufsichtsbehörde zu beschweren.",
        "Unseren Datenschutzbeauftragten erreichen Sie unter der oben genannten Anschrift mit dem Zusatz Datenschutz.",
        "Zur Vermeidung von Versicherungsmissbrauch nehmen wir am Hinweis- und Informationssystem (HIS) teil.",
        "Bonitätsinformationen können wir bei Auskunfteien einholen, soweit dies zur Wahrung berechtigter Interessen erforderlich ist.",
        "Eine Übermittlung in Staaten außerhalb des Europäischen Wirtschaftsraums findet nicht statt.",
        "Die vollständigen Informationen zum Datenschutz finden Sie auf unserer Internetseite.",
    ],
    "privacy_en": [
        "We process your personal data to arrange and administer your policy and to handle claims.",
        "The lawful basis for processing is the performance of your insurance contract.",
        "Special category data such as health information is processed only with your explicit consent.",
        "We may share information with reinsurers, loss adjusters and fraud prevention agencies.",
        "We keep your information for no longer than necessary and in line with regulatory requirements.",
        "You have the right to access, correct or erase your personal data.",
        "You may object to processing for direct marketing at any time.",
        "You have the right to complain to the Information Commissioner's Office.",
        "Our Data Protection Officer can be contacted at the address above.",
        "Calls may be recorded for training and quality purposes.",
        "We may check your details with credit reference agencies.",
        "Your data is not transferred outside the UK or the European Economic Area without safeguards.",
    ],
    "energy_de": [
        "Ihr Abschlag wurde auf Grundlage Ihres bisherigen Verbrauchs neu berechnet.",
        "Der Arbeitspreis enthält Netzentgelte, Konzessionsabgabe, Stromsteuer und Umlagen.",
        "Der Vergleichswert eines Haushalts mit ähnlichem Verbrauch ist in der Grafik dargestellt.",
        "Ein Lieferantenwechsel ist für Sie kostenlos und innerhalb von drei Wochen möglich.",
        "Informationen zu Energiedienstleistungen und Energieeffizienzmaßnahmen erhalten Sie auf unserer Internetseite.",
        "Der Zählerstand wurde durch den Messstellenbetreiber abgelesen.",
        "Bitte teilen Sie uns Ihren Zählerstand bei einem Umzug rechtzeitig mit.",
        "Guthaben werden mit dem nächsten Abschlag verrechnet oder auf Ihr Konto erstattet.",
    ],
    "energy_en": [
        "Your Direct Debit has been reviewed based on your recent usage.",
        "Your unit rate includes network costs and environmental and social obligations.",
        "You could save money by switching to a different tariff or supplier.",
        "Please send us regular meter readings to avoid estimated bills.",
        "Any credit on your account will be refunded on request.",
        "Information about energy efficiency is available on our website.",
    ],
}


def paragraphs(rng: random.Random, pool: str, k_min: int, k_max: int) -> list[str]:
    """A random subset of a pool's sentences, in random order, as 1-3 paragraphs."""
    sents = POOLS[pool]
    picked = rng.sample(sents, k=min(len(sents), rng.randint(k_min, k_max)))
    out, i = [], 0
    while i < len(picked):
        n = rng.randint(2, 4)
        out.append(" ".join(picked[i : i + n]))
        i += n
    return out
