"""French (France, with Swiss and Belgian forms)."""

from . import Lang

LANG = Lang(
    code="fr",
    name="French",
    months=("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre"),
    months_abbr=("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    weekdays=("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    day_one="1er",
    date_words=("{day} {month} {year}", "{weekday} {day} {month} {year}", "le {day} {month} {year}",
                "{day} {mon} {year}"),
    month_year=("{month} {year}", "{month} {year}", "mois de {month} {year}"),
    date_numeric=("{dd}/{mm}/{yyyy}", "{dd}.{mm}.{yyyy}", "{dd}/{mm}/{yy}"),
    amounts=(("\u202f", ",", "{n} €"), (" ", ",", "{n} €"), (" ", ",", "{n} EUR"), ("'", ".", "{n} CHF"),
             ("'", ".", "CHF {n}"), (".", ",", "{n} €")),
    labels={
        "invoice_no": ("N° de facture", "Facture n°", "Numéro de facture"),
        "invoice_date": ("Date de facture", "Date de facturation"),
        "customer_no": ("Numéro de client", "N° client", "Réf. client"),
        "contract_no": ("N° de contrat", "Numéro de contrat"),
        "policy_no": ("N° de police", "Numéro de police", "Contrat n°"),
        "order_no": ("N° de commande", "Commande n°"),
        "booking_ref": ("Référence de réservation", "Dossier voyage"),
        "reference": ("Notre référence", "Vos références", "Réf."),
        "tax_no": ("N° TVA intracommunautaire", "Numéro fiscal"),
        "social_no": ("N° de sécurité sociale", "Numéro AVS"),
        "employee_no": ("Matricule", "N° salarié"),
        "due_date": ("Date d'échéance", "À payer avant le"),
        "period": ("Période", "Période de paie"),
        "date": ("Date", "Fait le"),
        "total": ("Total TTC", "Montant total", "Net à payer"),
        "meter_no": ("N° de compteur", "Point de livraison"),
    },
    id_shapes={
        "invoice_no": "F{y}-{n5}", "customer_no": "{n8}", "contract_no": "CT{n7}", "policy_no": "{AB}{n8}",
        "order_no": "CMD-{n6}", "booking_ref": "{AB}{AB}{n2}", "reference": "{AB}/{n4}/{y2}", "tax_no": "FR{n2}{n9}",
        "social_no": "{n1} {n2} {n2} {n2} {n3} {n3} {n2}", "employee_no": "{n5}", "meter_no": "{n12}",
    },
    streets=("{n} rue {name}", "{n}, rue {name}", "{n} avenue {name}", "{n} boulevard {name}", "{n} place {name}",
             "{n} bis rue {name}", "{n} chemin {name}", "{n} allée {name}", "{n} quai {name}"),
    street_names=("de la République", "Victor Hugo", "des Lilas", "du Général de Gaulle", "Pasteur", "de Paris",
                  "Jean Jaurès", "de la Gare", "des Écoles", "Gambetta", "du Moulin", "Saint-Honoré", "de Verdun",
                  "des Acacias", "Voltaire", "de la Liberté", "du Marché", "Émile Zola", "des Tilleuls", "Carnot"),
    places=(("75011", "Paris"), ("69003", "Lyon"), ("13001", "Marseille"), ("31000", "Toulouse"), ("44000", "Nantes"),
            ("33000", "Bordeaux"), ("59000", "Lille"), ("67000", "Strasbourg"), ("35000", "Rennes"),
            ("34000", "Montpellier"), ("06000", "Nice"), ("21000", "Dijon"), ("1003", "Lausanne"),
            ("1201", "Genève"), ("1000", "Bruxelles"), ("4000", "Liège"), ("2000", "Neuchâtel"), ("37000", "Tours")),
    first_names=("Marie", "Jean", "Camille", "Pierre", "Sophie", "Nicolas", "Isabelle", "Julien", "Nathalie",
                 "Thomas", "Élodie", "François", "Céline", "Mathieu", "Aurélie", "Antoine", "Chloé", "Laurent",
                 "Inès", "Hugo", "Léa", "Mohamed", "Yasmine", "Benoît", "Hélène", "Gaëlle", "Jérôme"),
    last_names=("Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
                "Simon", "Laurent", "Lefèvre", "Michel", "Garcia", "David", "Bertrand", "Roux", "Vincent", "Fournier",
                "Morel", "Girard", "André", "Mercier", "Dupont", "Lambert", "Bonnet", "François", "Martinez",
                "Chevalier", "Rousseau", "Blanchard", "Benoît", "Gauthier", "Perrin", "N'Diaye"),
    org_cores=("Azur", "Horizon", "Atlantique", "Lumière", "Provence", "Alpes", "Étoile", "Cèdre", "Océane",
               "Val de Loire", "Armor", "Delta", "Saphir", "Rhône", "Capitole", "Iris"),
    org_forms=("{core} SARL", "{core} SAS", "Société {core}", "{last} & Fils", "Établissements {last}",
               "{core} Services SA", "{core} Conseil"),
    org_kinds={
        "utility": ("{core} Énergie", "Régie des eaux de {city}", "{core} Électricité SA"),
        "insurer": ("{core} Assurances", "Mutuelle {core}", "{core} Assurances Mutuelles"),
        "bank": ("Banque {core}", "Crédit {core}", "Caisse d'Épargne {core}"),
        "landlord": ("Cabinet {last} Immobilier", "Régie {last}", "{core} Habitat"),
        "employer": ("{core} SAS", "{last} Industries", "Groupe {core}"),
        "transport": ("SNCF Voyageurs", "{core} Rail", "Lyria"),
        "company": ("{core} SARL", "{last} & Fils", "Société {core}", "{core} Distribution"),
    },
    phones=("+33 1 {n2} {n2} {n2} {n2}", "04 {n2} {n2} {n2} {n2}", "+41 21 {n3} {n2} {n2}", "+32 2 {n3} {n2} {n2}"),
    stamps=("Imprimé le {date} à {time}", "Scanné le {date} à {time}", "Reçu le {date}", "Édité le {date}",
            "COPIE", "Duplicata", "Copie pour vos dossiers", "Document numérisé le {date}"),
    scan_headers=("Numérisé le {date} {time}", "Télécopie du {date} {time} p. 1", "Arrivée le {date}"),
    text={
        "dear": "Madame, Monsieur,",
        "dear_named": "Bonjour {first} {last},",
        "regards": "Nous vous prions d'agréer, Madame, Monsieur, l'expression de nos salutations distinguées.",
        "regards_short": "Cordialement,",
        "place_date": "{city}, le {date}",
        "subject": "Objet",
        "page": "Page {i} sur {n}",
        "invoice": "FACTURE",
        "invoice_intro": "Nous vous remercions de votre confiance et vous prions de trouver ci-dessous le détail "
                         "des prestations réalisées.",
        "invoice_pay": "Merci de régler la somme de {amount} avant le {date} en rappelant la référence {ref}.",
        "invoice_terms": "Conditions de paiement : paiement à réception de facture, sans escompte. En cas de retard "
                         "de paiement, une pénalité égale à trois fois le taux d'intérêt légal sera exigible, ainsi "
                         "qu'une indemnité forfaitaire pour frais de recouvrement de quarante euros. Les "
                         "marchandises restent notre propriété jusqu'au paiement intégral du prix.",
        "col_item": "Désignation", "col_qty": "Quantité", "col_price": "Prix unitaire", "col_amount": "Montant",
        "subtotal": "Total HT", "vat": "TVA 20 %", "total_due": "Total TTC",
        "payslip": "Bulletin de paie",
        "gross_pay": "Salaire brut",
        "net_pay": "Net à payer avant impôt",
        "payslip_note": "Dans votre intérêt et pour vous aider à faire valoir vos droits, conservez ce bulletin de "
                        "paie sans limitation de durée. Le montant net social est à déclarer auprès des organismes "
                        "qui vous versent des prestations sociales.",
        "employer_cost": "Total versé par l'employeur",
        "statement": "Relevé de compte",
        "opening": "Ancien solde au",
        "closing": "Nouveau solde au",
        "statement_text": "Vérifiez les opérations de ce relevé et signalez-nous toute anomalie dans les meilleurs "
                          "délais. Vos dépôts sont garantis par le Fonds de garantie des dépôts et de résolution "
                          "dans la limite de cent mille euros par déposant et par établissement.",
        "utility": "Facture d'électricité",
        "schedule": "Échéancier de paiement",
        "meter_old": "Ancien index", "meter_new": "Nouvel index", "consumption": "Consommation (kWh)",
        "unit_price": "Prix du kWh", "standing": "Abonnement", "advance": "Mensualité",
        "utility_text": "En cas de réclamation, contactez notre service clients. Si la réponse ne vous satisfait "
                        "pas, vous pouvez saisir gratuitement le médiateur national de l'énergie. Retrouvez nos "
                        "offres et nos conseils pour maîtriser votre consommation sur notre site internet.",
        "insurer": "Votre contrat d'assurance habitation",
        "insurer_body": "Nous vous informons que votre contrat sera reconduit pour une nouvelle année aux "
                        "conditions indiquées dans l'avis d'échéance ci-joint. Vos garanties restent inchangées. "
                        "Si votre situation a changé, merci de nous en informer afin que nous puissions adapter "
                        "votre couverture.",
        "insurer_risk": "Adresse du bien assuré",
        "insurer_footer": "Conformément aux articles L. 113-12 et L. 113-15-2 du Code des assurances, vous pouvez "
                          "résilier votre contrat à tout moment après expiration d'un délai d'un an à compter de "
                          "la première souscription, sans frais ni pénalités. La résiliation prend effet un mois "
                          "après réception de votre notification. Les informations recueillies font l'objet d'un "
                          "traitement destiné à la gestion de votre contrat. Vous disposez d'un droit d'accès, de "
                          "rectification, d'opposition et d'effacement des données vous concernant, que vous pouvez "
                          "exercer auprès de notre délégué à la protection des données. En cas de litige, vous "
                          "pouvez saisir le médiateur de l'assurance. Entreprise régie par le Code des assurances, "
                          "soumise au contrôle de l'Autorité de contrôle prudentiel et de résolution.",
        "reminder": "Rappel de paiement",
        "reminder_body": "Sauf erreur de notre part, la facture {ref} du {date} d'un montant de {amount} n'a pas "
                         "encore été réglée à ce jour.",
        "reminder_more": "Nous vous remercions de bien vouloir procéder au règlement sous huit jours. Si vous avez "
                         "effectué ce paiement entre-temps, nous vous prions de ne pas tenir compte de ce courrier.",
        "tenancy": "Avis d'échéance",
        "receipt": "Quittance de loyer",
        "rent": "Loyer hors charges", "charges": "Provisions pour charges",
        "tenancy_body": "Le bailleur reconnaît avoir reçu du locataire la somme indiquée ci-dessus au titre du "
                        "loyer et des charges pour la période mentionnée, et lui en donne quittance, sous réserve "
                        "de tous ses droits.",
        "premises": "Adresse du logement",
        "letter": "Lettre d'information mensuelle",
        "letter_body": "Nous avons le plaisir de vous adresser notre lettre d'information. Vous y trouverez les "
                       "dernières nouvelles de notre association, le programme des activités et les dates des "
                       "prochaines réunions. N'hésitez pas à nous faire part de vos suggestions.",
        "ticket": "Billet de train",
        "departure": "Départ", "arrival": "Arrivée", "coach": "Voiture", "seat": "Place", "passenger": "Voyageur",
        "train": "Train",
        "ticket_terms": "Billet nominatif, valable uniquement pour le train, la date et la place indiqués. "
                        "Échangeable et remboursable sans frais jusqu'à trois jours avant le départ.",
        "mail_from": "De", "mail_to": "À", "mail_sent": "Envoyé",
        "mail_disclaimer": "Ce message et ses pièces jointes sont confidentiels et destinés exclusivement à leur "
                           "destinataire. Si vous l'avez reçu par erreur, merci d'en avertir l'expéditeur et de le "
                           "supprimer.",
        "fax": "TÉLÉCOPIE", "fax_pages": "Nombre de pages",
        "confidential": "Confidentiel : destiné uniquement au destinataire.",
        "draft": "PROJET v{v} – version du {date}",
        "contract": "CONTRAT DE PRESTATION DE SERVICES",
        "article": "Article {n}",
    },
    items=("Maintenance annuelle", "Heure de main-d'œuvre", "Déplacement", "Pièce détachée", "Forfait installation",
           "Abonnement logiciel", "Cartouche d'encre", "Papier A4 ramette", "Nettoyage des locaux", "Conseil juridique",
           "Formation d'une journée", "Hébergement du site", "Location de matériel", "Frais de port"),
    pay_rows=("Salaire de base", "Heures supplémentaires", "Prime d'ancienneté", "Indemnité de transport"),
    deduction_rows=("Sécurité sociale maladie", "Assurance vieillesse", "Retraite complémentaire",
                    "Assurance chômage", "CSG déductible", "CSG/CRDS non déductible"),
    tx_words=("Virement reçu", "Prélèvement", "Paiement carte", "Retrait DAB", "Virement émis", "Frais bancaires"),
    doc_titles=("Attestation", "Compte rendu de réunion", "Confirmation de rendez-vous", "Proposition commerciale",
                "Courrier", "Avis de passage", "Convocation", "Note d'information", "Certificat", "Devis"),
    notes=("Rappeler {name} au sujet du dossier {num}.", "Colis déposé chez le voisin, suivi {num}.",
           "Reçu {amount} en espèces. {name}", "Rendez-vous déplacé au {weekday} {date}.",
           "Clés dans la boîte aux lettres. {name}", "Copie pour le dossier, {date}."),
    tesseract="fra",
    iban_country="FR",
    grammar={
        "subjects": ("Notre service clients", "Le conseiller chargé de votre dossier", "La direction",
                     "Notre équipe technique", "Le secrétariat", "Le comité", "Notre agence", "Le cabinet",
                     "Le responsable du projet", "Notre partenaire", "L'administration", "Le service comptable"),
        "verbs": ("a bien reçu", "examinera", "confirme", "a transmis", "vous adresse", "a validé", "prépare",
                  "vous rappelle", "a enregistré", "étudie", "met à jour", "vous propose"),
        "objects": ("votre demande de remboursement", "le dossier de candidature", "les documents demandés",
                    "le rapport annuel", "votre réclamation", "le devis détaillé", "la nouvelle convention",
                    "le planning des travaux", "votre changement d'adresse", "le bilan des activités",
                    "les pièces justificatives", "le compte rendu de la réunion", "votre inscription",
                    "la facture rectificative", "le contrat de maintenance", "les conditions générales"),
        "tails": ("dans les meilleurs délais.", "avant la fin du mois.", "conformément à votre demande.",
                  "comme convenu lors de notre entretien.", "dès réception de votre accord.",
                  "pour la période concernée.", "sous réserve de validation.", "à titre d'information.",
                  "selon les modalités habituelles.", "en deux exemplaires.", "par courrier recommandé.",
                  "avec nos excuses pour ce retard."),
        "legal": ("Le présent contrat est conclu pour une durée d'un an renouvelable par tacite reconduction.",
                  "Chaque partie peut y mettre fin par lettre recommandée avec un préavis de trois mois.",
                  "Le prestataire s'engage à exécuter les prestations avec tout le soin nécessaire.",
                  "Les prix s'entendent hors taxes et sont révisables chaque année.",
                  "Toute modification du présent contrat fera l'objet d'un avenant écrit.",
                  "Le client s'engage à fournir toutes les informations utiles à la bonne exécution du contrat.",
                  "La responsabilité du prestataire est limitée aux dommages directs.",
                  "Les parties s'engagent à garder confidentielles les informations échangées.",
                  "Tout litige sera soumis aux tribunaux compétents du siège du prestataire.",
                  "Le contrat est régi par le droit français.",
                  "Aucune des parties ne sera responsable en cas de force majeure.",
                  "Les factures sont payables à trente jours date de facture."),
    },
    routes=("Aller : {a} - {b}", "Trajet : {a} à {b}", "Voyage de {a} à {b}"),
    route_prose=("Nous avons bien reçu de votre part le courrier à votre nom.", "Le dossier de Monsieur {last} à la mairie.", "Ouvert du lundi au vendredi de 9 h à 17 h."),
)
