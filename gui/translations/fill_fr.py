#!/usr/bin/env python3
"""Fills gui/translations/minicluster_fr.ts from the table below (the French texts live here
so that they survive `--target update_translations`). Run after lupdate; untranslated sources
stay marked unfinished and are listed.

With --check, changes nothing and fails when a message of the .ts file has no finished
translation (the ctest gui.translations)."""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FR = {
    "minicluster: a small Slurm cluster on this computer, for learning.":
        "minicluster : un petit cluster Slurm sur cet ordinateur, pour apprendre.",
    "The cluster directory (default: the default cluster).":
        "Le dossier du cluster (par défaut : le cluster par défaut).",
    "CLUSTER_DIR": "DOSSIER_CLUSTER",
    "Not connected to the cluster": "Non connecté au cluster",
    "Not connected: no cluster controller at %1 (%2); retrying…":
        "Non connecté : pas de contrôleur de cluster à %1 (%2) ; nouvel essai…",
    "Not connected: the cluster controller at %1 closed the connection; retrying…":
        "Non connecté : le contrôleur du cluster à %1 a fermé la connexion ; nouvel essai…",
    "Connecting to the cluster…": "Connexion au cluster…",
    "The cluster controller sent a malformed message; reconnecting…":
        "Le contrôleur du cluster a envoyé un message mal formé ; reconnexion…",
    "Lost the connection to the cluster controller; reconnecting…":
        "Connexion au contrôleur du cluster perdue ; reconnexion…",
    "The cluster controller refused the subscription: %1":
        "Le contrôleur du cluster a refusé l’abonnement : %1",
    "Connected to the cluster": "Connecté au cluster",
    "Select a job in the queue to see everything about it.":
        "Choisissez un job dans la file d’attente pour tout savoir de lui.",
    "It waits; Slurm gives the reason “%1”.": "Il attend ; Slurm donne la raison « %1 ».",
    "It has just been submitted; the scheduler has not looked at it yet.":
        "Il vient d’être soumis ; l’ordonnanceur ne l’a pas encore examiné.",
    "It waits for jobs with a higher priority, which will start first.":
        "Il attend des jobs plus prioritaires, qui démarreront avant lui.",
    "It is next in line and waits for enough CPUs or memory to become free.":
        "Il est le prochain et attend qu’assez de CPU ou de mémoire se libèrent.",
    "It waits for the jobs it depends on (--dependency) to reach the required state.":
        "Il attend que les jobs dont il dépend (--dependency) atteignent l’état demandé.",
    "It can never start: a job it depends on ended in a way the dependency does not accept. Cancel it with scancel.":
        "Il ne pourra jamais démarrer : un job dont il dépend s’est terminé d’une façon que la "
        "dépendance n’accepte pas. Annulez-le avec scancel.",
    "It waits for the start time it was given (--begin).":
        "Il attend l’heure de début qu’on lui a donnée (--begin).",
    "It is held by its owner; release it with scontrol release.":
        "Son propriétaire le retient ; libérez-le avec scontrol release.",
    "It is held by an administrator.": "Un administrateur le retient.",
    "Its time limit is longer than the partition allows; it will not start as it is.":
        "Sa limite de temps dépasse celle de la partition ; il ne démarrera pas tel quel.",
    "It asks for more nodes than the partition allows; it will not start as it is.":
        "Il demande plus de nœuds que la partition n’en permet ; il ne démarrera pas tel quel.",
    "Its partition does not accept jobs to run right now.":
        "Sa partition n’accepte pas de jobs à exécuter pour le moment.",
    "Its array runs at most the number of tasks given with %; the others wait.":
        "Son tableau exécute au plus le nombre de tâches donné avec % ; les autres attendent.",
    "A node it needs is not available (down or drained).":
        "Un nœud dont il a besoin n’est pas disponible (down ou drain).",
    "No node can ever satisfy what it asks for; it will not start as it is.":
        "Aucun nœud ne peut satisfaire sa demande ; il ne démarrera pas tel quel.",
    "Its account is not valid for this user or partition.":
        "Son compte n’est pas valide pour cet utilisateur ou cette partition.",
    "Its owner already runs as many jobs as the QOS allows.":
        "Son propriétaire exécute déjà autant de jobs que la QOS le permet.",
    "Its state is %1.": "Son état est %1.",
    "Pending: ": "En attente : ",
    "Running on %1.": "En cours sur %1.",
    "Suspended: its processes are stopped and will continue later.":
        "Suspendu : ses processus sont arrêtés et reprendront plus tard.",
    "Completing: it has ended and its nodes are being cleaned up.":
        "En fin d’exécution : il s’est terminé et ses nœuds sont en cours de nettoyage.",
    "Completed: its script exited with status 0.": "Terminé : son script a fini avec le code 0.",
    "Cancelled (scancel) before it finished.": "Annulé (scancel) avant la fin.",
    "Failed: its script was killed by signal %1. Read its error file.":
        "Échec : son script a été tué par le signal %1. Lisez son fichier d’erreur.",
    "Failed: its script exited with status %1. Read its error file.":
        "Échec : son script a fini avec le code %1. Lisez son fichier d’erreur.",
    "Timed out: it ran longer than its time limit and was stopped. Ask for more time (--time) or make it faster.":
        "Temps dépassé : il a tourné plus longtemps que sa limite et a été arrêté. Demandez plus "
        "de temps (--time) ou accélérez-le.",
    "Out of memory: it used more memory than it asked for and was killed. Ask for more (--mem).":
        "Mémoire épuisée : il a utilisé plus de mémoire que demandé et a été tué. Demandez-en "
        "plus (--mem).",
    "Its node failed while it ran.": "Son nœud est tombé en panne pendant qu’il tournait.",
    "Its state is %1 (reason %2).": "Son état est %1 (raison %2).",
    "minicluster": "minicluster",
    "Queue": "File d’attente",
    "Nodes": "Nœuds",
    "Job details": "Détails du job",
    "&File": "&Fichier",
    "New &Terminal Tab": "Nouvel onglet &terminal",
    "Open the Shell in &My Terminal": "Ouvrir le shell dans &mon terminal",
    "&Quit": "&Quitter",
    "&View": "&Affichage",
    "&Language": "&Langue",
    "System Language": "Langue du système",
    "Open the shell in my terminal": "Ouvrir le shell dans mon terminal",
    "%1 pending, %2 running": "%1 en attente, %2 en cours",
    "Click a node to see the jobs on it.": "Cliquez sur un nœud pour voir ses jobs.",
    "%1: %2, partitions %3. CPUs %4 allocated/total, memory %5 MiB, GPUs %6.":
        "%1 : %2, partitions %3. CPU %4 alloués/total, mémoire %5 Mio, GPU %6.",
    "No job runs on it.": "Aucun job n’y tourne.",
    "Job %1 (%2): CPUs %3": "Job %1 (%2) : CPU %3",
    "All users": "Tous les utilisateurs",
    "My jobs (%1)": "Mes jobs (%1)",
    "All partitions": "Toutes les partitions",
    "All states": "Tous les états",
    "Show finished jobs": "Afficher les jobs terminés",
    "Like squeue -t all: also list the jobs that ended in the last 5 minutes.":
        "Comme squeue -t all : liste aussi les jobs terminés depuis moins de 5 minutes.",
    "Not connected to the cluster.": "Non connecté au cluster.",
    "Start the cluster with “minicluster up”; this window connects to it as soon as it runs.":
        "Démarrez le cluster avec « minicluster up » ; cette fenêtre s’y connecte dès qu’il tourne.",
    "login1": "login1",
    "%1 (ended)": "%1 (terminé)",
    "No terminal program was found (tried %1). Run this in your own terminal:\n%2":
        "Aucun programme de terminal trouvé (essayés : %1). Lancez ceci dans votre terminal :\n%2",
    "%1: command not found": "%1 : commande introuvable",
    "cannot open a terminal: %1": "impossible d’ouvrir un terminal : %1",
    "The shell has ended (exit status %1).": "Le shell s’est terminé (code de sortie %1).",
    "Copy": "Copier",
    "Paste": "Coller",
    "Select All": "Tout sélectionner",
}


def check(path: Path) -> int:
    unfinished = []
    for message in ET.parse(path).getroot().iter("message"):
        translation = message.find("translation")
        has_text = bool((translation.text or "").strip()) or any(
            (form.text or "").strip() for form in translation.iter("numerusform"))
        if translation.get("type") in ("unfinished", "vanished", "obsolete") or not has_text:
            unfinished.append(message.find("source").text)
    for source in unfinished:
        print(f"not translated: {source!r}", file=sys.stderr)
    print(f"{path.name}: {len(unfinished)} message(s) not translated")
    return 1 if unfinished else 0


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--check"]
    path = Path(args[0] if args else Path(__file__).with_name("minicluster_fr.ts"))
    if "--check" in sys.argv[1:]:
        return check(path)
    tree = ET.parse(path)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.find("source").text
        translation = message.find("translation")
        text = FR.get(source)
        if text is None:
            missing.append(source)
            continue
        translation.attrib.pop("type", None)
        translation.text = None
        for child in list(translation):
            translation.remove(child)
        if message.get("numerus") == "yes":
            for form in text:
                ET.SubElement(translation, "numerusform").text = form
        else:
            translation.text = text
    tree.write(path, encoding="utf-8", xml_declaration=True)
    for source in missing:
        print(f"untranslated: {source!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
