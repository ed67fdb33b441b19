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
        "minicluster : une petite grappe Slurm sur cet ordinateur, pour apprendre.",
    "The cluster directory (default: the default cluster).":
        "Le dossier de la grappe (par défaut : la grappe par défaut).",
    "CLUSTER_DIR": "DOSSIER_CLUSTER",
    "Not connected to the cluster": "Non connecté à la grappe",
    "Not connected: no cluster controller at %1 (%2); retrying…":
        "Non connecté : pas de contrôleur de grappe à %1 (%2) ; nouvel essai…",
    "Not connected: the cluster controller at %1 closed the connection; retrying…":
        "Non connecté : le contrôleur de la grappe à %1 a fermé la connexion ; nouvel essai…",
    "Connecting to the cluster…": "Connexion à la grappe…",
    "The cluster controller sent a malformed message; reconnecting…":
        "Le contrôleur de la grappe a envoyé un message mal formé ; reconnexion…",
    "Lost the connection to the cluster controller; reconnecting…":
        "Connexion au contrôleur de la grappe perdue ; reconnexion…",
    "The cluster controller refused the subscription: %1":
        "Le contrôleur de la grappe a refusé l’abonnement : %1",
    "Connected to the cluster": "Connecté à la grappe",
    "Users are not isolated from each other":
        "Les utilisateurs ne sont pas isolés les uns des autres",
    "Every user of this cluster runs as your own user on this computer: classmates can read, "
    "change and kill each other's files and jobs. Run minicluster as root to give each user an "
    "id of its own.":
        "Chaque utilisateur de cette grappe tourne sous votre propre utilisateur sur cet "
        "ordinateur : les camarades peuvent lire, modifier et tuer les fichiers et les tâches "
        "des autres. Lancez minicluster en tant que root pour donner à chaque utilisateur un "
        "identifiant propre.",
    "Select a job in the queue to see everything about it.":
        "Choisissez une tâche dans la file d’attente pour tout savoir d’elle.",
    "It waits; Slurm gives the reason “%1”.": "Elle attend ; Slurm donne la raison « %1 ».",
    "It has just been submitted; the scheduler has not looked at it yet.":
        "Elle vient d’être soumise ; l’ordonnanceur ne l’a pas encore examinée.",
    "It waits for jobs with a higher priority, which will start first.":
        "Elle attend des tâches plus prioritaires, qui démarreront avant elle.",
    "It is next in line and waits for enough CPUs or memory to become free.":
        "Elle est la prochaine et attend qu’assez de CPU ou de mémoire se libèrent.",
    "It waits for the jobs it depends on (--dependency) to reach the required state.":
        "Elle attend que les tâches dont elle dépend (--dependency) atteignent l’état demandé.",
    "It can never start: a job it depends on ended in a way the dependency does not accept. Cancel it with scancel.":
        "Elle ne pourra jamais démarrer : une tâche dont elle dépend s’est terminée d’une façon "
        "que la dépendance n’accepte pas. Annulez-la avec scancel.",
    "It waits for the start time it was given (--begin).":
        "Elle attend l’heure de début qu’on lui a donnée (--begin).",
    "It is held by its owner; release it with scontrol release.":
        "Son propriétaire la retient ; libérez-la avec scontrol release.",
    "It is held by an administrator.": "Un administrateur la retient.",
    "Its time limit is longer than the partition allows; it will not start as it is.":
        "Sa limite de temps dépasse celle de la partition ; elle ne démarrera pas telle quelle.",
    "It asks for more nodes than the partition allows; it will not start as it is.":
        "Elle demande plus de nœuds que la partition n’en permet ; elle ne démarrera pas telle quelle.",
    "Its partition does not accept jobs to run right now.":
        "Sa partition n’accepte pas de tâches à exécuter pour le moment.",
    "Its array runs at most the number of tasks given with %; the others wait.":
        "Son tableau exécute au plus le nombre de tâches donné avec % ; les autres attendent.",
    "A node it needs is not available (down or drained).":
        "Un nœud dont elle a besoin n’est pas disponible (down ou drain).",
    "No node can ever satisfy what it asks for; it will not start as it is.":
        "Aucun nœud ne peut satisfaire sa demande ; elle ne démarrera pas telle quelle.",
    "Its account is not valid for this user or partition.":
        "Son compte n’est pas valide pour cet utilisateur ou cette partition.",
    "Its owner already runs as many jobs as the QOS allows.":
        "Son propriétaire exécute déjà autant de tâches que la QOS le permet.",
    "Its state is %1.": "Son état est %1.",
    "Pending: ": "En attente : ",
    "Running on %1.": "En cours sur %1.",
    "Suspended: its processes are stopped and will continue later.":
        "Suspendue : ses processus sont arrêtés et reprendront plus tard.",
    "Completing: it has ended and its nodes are being cleaned up.":
        "En fin d’exécution : elle s’est terminée et ses nœuds sont en cours de nettoyage.",
    "Completed: its script exited with status 0.": "Terminée : son script a fini avec le code 0.",
    "Cancelled (scancel) before it finished.": "Annulée (scancel) avant la fin.",
    "Failed: its script was killed by signal %1. Read its error file.":
        "Échec : son script a été tué par le signal %1. Lisez son fichier d’erreur.",
    "Failed: its script exited with status %1. Read its error file.":
        "Échec : son script a fini avec le code %1. Lisez son fichier d’erreur.",
    "Timed out: it ran longer than its time limit and was stopped. Ask for more time (--time) or make it faster.":
        "Temps dépassé : elle a tourné plus longtemps que sa limite et a été arrêtée. Demandez "
        "plus de temps (--time) ou accélérez-la.",
    "Out of memory: it used more memory than it asked for and was killed. Ask for more (--mem).":
        "Mémoire épuisée : elle a utilisé plus de mémoire que demandé et a été tuée. Demandez-en "
        "plus (--mem).",
    "Its node failed while it ran.": "Son nœud est tombé en panne pendant qu’elle tournait.",
    "Its state is %1 (reason %2).": "Son état est %1 (raison %2).",
    "minicluster": "minicluster",
    "Queue": "File d’attente",
    "Nodes": "Nœuds",
    "Job details": "Détails de la tâche",
    "&File": "&Fichier",
    "New &Terminal Tab": "Nouvel onglet &terminal",
    "Open the Shell in &My Terminal": "Ouvrir le shell dans &mon terminal",
    "&Quit": "&Quitter",
    "&View": "&Affichage",
    "&Language": "&Langue",
    "System Language": "Langue du système",
    "Open the shell in my terminal": "Ouvrir le shell dans mon terminal",
    "%1 pending, %2 running": "%1 en attente, %2 en cours",
    "Click a node to see the jobs on it.": "Cliquez sur un nœud pour voir ses tâches.",
    "%1: %2, partitions %3. CPUs %4 allocated/total, memory %5 MiB, GPUs %6.":
        "%1 : %2, partitions %3. CPU %4 alloués/total, mémoire %5 Mio, GPU %6.",
    "No job runs on it.": "Aucune tâche n’y tourne.",
    "Job %1 (%2): CPUs %3": "Tâche %1 (%2) : CPU %3",
    "All users": "Tous les utilisateurs",
    "My jobs (%1)": "Mes tâches (%1)",
    "All partitions": "Toutes les partitions",
    "All states": "Tous les états",
    "Show finished jobs": "Afficher les tâches terminées",
    "Like squeue -t all: also list the jobs that ended in the last 5 minutes.":
        "Comme squeue -t all : liste aussi les tâches terminées depuis moins de 5 minutes.",
    "Not connected to the cluster.": "Non connecté à la grappe.",
    "Start the cluster with “minicluster up”; this window connects to it as soon as it runs.":
        "Démarrez la grappe avec « minicluster up » ; cette fenêtre s’y connecte dès qu’elle tourne.",
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
    # The timeline, history, filesystems, submit form and instructor panel (issue #7, second pass).
    "Quotas are not available yet: the storage node has not published a usage snapshot (%1).":
        "Les quotas ne sont pas encore disponibles : le nœud de stockage n’a pas publié de relevé d’utilisation (%1).",
    "Measured by the storage node at %1 (cluster clock), %2 ago.":
        "Mesuré par le nœud de stockage à %1 (horloge de la grappe), il y a %2.",
    "/%1 (group %2)": "/%1 (groupe %2)",
    "/%1 (user %2)": "/%1 (utilisateur %2)",
    "%1 of %2": "%1 sur %2",
    "%1, no quota": "%1, sans quota",
    "%1 of %2 files": "%1 fichiers sur %2",
    "%1 files, no quota": "%1 fichiers, sans quota",
    "not there": "absent",
    "over %1 files": "plus de %1 fichiers",
    "1 file": "1 fichier",
    "%1 files": "%1 fichiers",
    "unused for %1": "inutilisé depuis %1",
    "purge candidate (listed %1): deleted from %2": "à purger (listé le %1) : supprimé à partir du %2",
    "purge candidate (goes on the notice at the next check): deleted from %1 at the earliest":
        "à purger (listé dans l’avis au prochain contrôle) : supprimé au plus tôt le %1",
    "purge due: deleted at the storage node's next check":
        "purge échue : supprimé au prochain contrôle du nœud de stockage",
    "The cluster clock is %1 ahead of this computer's (%2): ages and the purge count that time.":
        "L’horloge de la grappe a %1 d’avance sur celle de cet ordinateur (%2) : les âges et la purge comptent ce temps.",
    "Last used %1 on the cluster clock.": "Dernière utilisation le %1, à l’horloge de la grappe.",
    "1 file on the purge notice": "1 fichier dans l’avis de purge",
    "%1 files on the purge notice": "%1 fichiers dans l’avis de purge",
    "not created": "pas créé",
    "Refresh": "Actualiser",
    "Usage and quotas (diskusage_report)": "Utilisation et quotas (diskusage_report)",
    "Filesystem": "Système de fichiers",
    "Space": "Espace",
    "Files": "Fichiers",
    "Your files, the longest unused first, aged on the cluster clock (the scratch purge removes files unused for too long)":
        "Vos fichiers, les plus longtemps inutilisés d’abord, leur âge compté à l’horloge de la grappe (la purge de scratch supprime les fichiers inutilisés depuis trop longtemps)",
    "Path": "Chemin",
    "Size": "Taille",
    "Age": "Âge",
    "Purge": "Purge",
    "$SLURM_TMPDIR of running jobs (node-local disk, removed when the job ends)":
        "$SLURM_TMPDIR des tâches en cours (disque local du nœud, supprimé à la fin de la tâche)",
    "Job": "Tâche",
    "$SLURM_TMPDIR": "$SLURM_TMPDIR",
    "0–1m": "0–1 min",
    "1–5m": "1–5 min",
    "5–15m": "5–15 min",
    "15–60m": "15–60 min",
    "1–4h": "1–4 h",
    "4h+": "4 h et +",
    "percent (bins of 10)": "pour cent (tranches de 10)",
    "1–5 min": "1–5 min",
    "5–15 min": "5–15 min",
    "15–60 min": "15–60 min",
    "1–4 h": "1–4 h",
    "The history is not available: %1": "L’historique n’est pas disponible : %1",
    "1 job in the accounting database.": "1 tâche dans la base de comptabilité.",
    "%1 jobs in the accounting database.": "%1 tâches dans la base de comptabilité.",
    "Time waited before starting": "Temps d’attente avant le démarrage",
    "CPU efficiency (%)": "Efficacité CPU (%)",
    "Memory efficiency (%)": "Efficacité mémoire (%)",
    "Jobs": "Tâches",
    "jobs": "tâches",
    "Only my jobs": "Seulement mes tâches",
    "Press Refresh to read the accounting database (what sacct reads).":
        "Cliquez sur Actualiser pour lire la base de comptabilité (ce que lit sacct).",
    "Cluster clock: %1, running at %2× real time.":
        "Horloge de la grappe : %1, à %2× le temps réel.",
    "Choose a node first.": "Choisissez d’abord un nœud.",
    "Give a reason: Slurm requires one to drain, fail or down a node (sinfo -R shows it).":
        "Donnez une raison : Slurm en exige une pour drainer, mettre en panne ou arrêter un nœud (sinfo -R l’affiche).",
    "%1: %2 done.": "%1 : %2 fait.",
    "%1: %2 refused: %3": "%1 : %2 refusé : %3",
    "Background users are submitting.": "Les utilisateurs d’arrière-plan soumettent des tâches.",
    "No background load.": "Pas de charge d’arrière-plan.",
    "No classmates are defined in etc/minicluster.conf: no background load.":
        "Aucun camarade n’est défini dans etc/minicluster.conf : pas de charge d’arrière-plan.",
    "%1 submitted, %2 refused.": "%1 soumis, %2 refusés.",
    "Last refusal: %1": "Dernier refus : %1",
    "Workload file (SWF)": "Fichier de charge (SWF)",
    "Standard Workload Format (*.swf *.txt);;All files (*)":
        "Standard Workload Format (*.swf *.txt);;Tous les fichiers (*)",
    "Cannot read %1.": "Impossible de lire %1.",
    "%1 has no job lines in the Standard Workload Format.":
        "%1 n’a aucune ligne de tâche au format Standard Workload Format.",
    "Resetting needs the minicluster command, which was not found next to this program.":
        "La réinitialisation demande la commande minicluster, introuvable à côté de ce programme.",
    "Reset the cluster": "Réinitialiser la grappe",
    "Stop the cluster, delete its queue and its whole job history, and start it again? The cluster clock goes back to real time. Files in home, project and scratch are kept.":
        "Arrêter la grappe, effacer sa file d’attente et tout son historique de tâches, puis la redémarrer ? L’horloge de la grappe revient à l’heure réelle. Les fichiers de home, project et scratch sont conservés.",
    "Stopping the cluster…": "Arrêt de la grappe…",
    "minicluster down failed: %1": "minicluster down a échoué : %1",
    "Starting the cluster again…": "Redémarrage de la grappe…",
    "The cluster was reset: empty queue, no history.":
        "La grappe a été réinitialisée : file vide, aucun historique.",
    "minicluster up failed: %1": "minicluster up a échoué : %1",
    "Cluster clock": "Horloge de la grappe",
    "Speed": "Vitesse",
    "Set speed": "Régler la vitesse",
    "Fast-forward": "Avance rapide",
    " days": " jours",
    " h": " h",
    "The scheduler, time limits and the scratch purge follow the cluster clock.":
        "L’ordonnanceur, les limites de temps et la purge de scratch suivent l’horloge de la grappe.",
    "Nodes (as the instructor, %1)": "Nœuds (en tant qu’enseignant, %1)",
    "Reason, shown by sinfo -R": "Raison, affichée par sinfo -R",
    "Drain": "Drainer",
    "Fail": "Panne",
    "Down": "Arrêter",
    "Resume": "Reprendre",
    "Background users": "Utilisateurs d’arrière-plan",
    "Generator (jobs per minute)": "Générateur (tâches par minute)",
    "Start the generator": "Démarrer le générateur",
    "Workload file replay speed": "Vitesse de rejeu du fichier de charge",
    "Replay a workload file (SWF)…": "Rejouer un fichier de charge (SWF)…",
    "Stop": "Arrêter",
    "Reset": "Réinitialisation",
    "Reset the cluster…": "Réinitialiser la grappe…",
    "Timeline": "Chronologie",
    "History": "Historique",
    "Filesystems": "Systèmes de fichiers",
    "Submit": "Soumettre",
    "Instructor": "Enseignant",
    "Open in my terminal": "Ouvrir dans mon terminal",
    "Open the same login shell in your own terminal program":
        "Ouvrir le même shell de connexion dans votre propre terminal",
    "Run in the terminal": "Lancer dans le terminal",
    "This window has no terminal; run this in your shell:\n%1":
        "Cette fenêtre n’a pas de terminal ; lancez ceci dans votre shell :\n%1",
    "Reason: %1": "Raison : %1",
    "Job %1 (%2): CPUs %3, memory %4 MiB, GPUs %5":
        "Tâche %1 (%2) : CPU %3, mémoire %4 Mio, GPU %5",
    "The cluster controller is not running (%1).":
        "Le contrôleur de la grappe ne tourne pas (%1).",
    "The cluster controller closed the connection.":
        "Le contrôleur de la grappe a fermé la connexion.",
    "The cluster controller did not answer.": "Le contrôleur de la grappe n’a pas répondu.",
    "The cluster controller sent a malformed reply.":
        "Le contrôleur de la grappe a envoyé une réponse mal formée.",
    "The cluster controller does not support “%1” yet.":
        "Le contrôleur de la grappe ne prend pas encore en charge « %1 ».",
    "The cluster controller refused the request.": "Le contrôleur de la grappe a refusé la demande.",
    "Choose a script first: sbatch needs one.": "Choisissez d’abord un script : sbatch en a besoin.",
    "Typed in the terminal; sbatch's answer is there.":
        "Tapé dans le terminal ; la réponse de sbatch s’y trouve.",
    "Could not copy the sample job to %1.": "Impossible de copier la tâche d’exemple vers %1.",
    "(your own script)": "(votre propre script)",
    "(no sample jobs installed: give your own script)":
        "(aucune tâche d’exemple installée : indiquez votre propre script)",
    "Sample job": "Tâche d’exemple",
    "A sample job of minicluster, copied into your home":
        "Une tâche d’exemple de minicluster, copiée dans votre home",
    "Script": "Script",
    "The batch script, as your shell sees its path":
        "Le script batch, avec le chemin que voit votre shell",
    "job.sh": "job.sh",
    "Job name": "Nom de la tâche",
    "Account": "Compte",
    "--account (empty: your default account)": "--account (vide : votre compte par défaut)",
    "Partition": "Partition",
    "Time limit": "Limite de temps",
    "--time: minutes, or [days-]hours:minutes:seconds":
        "--time : minutes, ou [jours-]heures:minutes:secondes",
    "Memory per node": "Mémoire par nœud",
    "--mem, with a unit: 500M, 2G": "--mem, avec une unité : 500M, 2G",
    "Tasks": "Tâches",
    "--ntasks (0: not given)": "--ntasks (0 : non précisé)",
    "CPUs per task": "CPU par tâche",
    "--cpus-per-task (0: not given)": "--cpus-per-task (0 : non précisé)",
    "GPUs per node": "GPU par nœud",
    "Array": "Tableau",
    "--array, e.g. 1-10%2": "--array, par ex. 1-10%2",
    "Dependency": "Dépendance",
    "--dependency, e.g. afterok:123": "--dependency, par ex. afterok:123",
    "The command this form runs (type it yourself next time):":
        "La commande que lance ce formulaire (tapez-la vous-même la prochaine fois) :",
    "finished": "terminé",
    "running (block ends at its time limit)": "en cours (le bloc finit à sa limite de temps)",
    "planned by the scheduler": "planifié par l’ordonnanceur",
    "not placed": "non placé",
    "now": "maintenant",
    "Job %1 (%2, %3): %4\n%5 → %6": "Tâche %1 (%2, %3) : %4\n%5 → %6",
    "Zoom in": "Zoom avant",
    "No task of this array has started yet.": "Aucune tâche de ce tableau n’a encore démarré.",
    "Started tasks: %1": "Tâches démarrées : %1",
    "1 task: %1": "1 tâche : %1",
    "%1 tasks: %2": "%1 tâches : %2",
    "Zoom out": "Zoom arrière",
    "Now": "Maintenant",
    "Faded: finished · solid: running, up to its time limit · hatched: planned start (backfill plan) · dark left edge, bf: started by backfill · red line: now. Ctrl+wheel zooms.":
        "Pâle : terminée · plein : en cours, jusqu’à sa limite de temps · hachuré : démarrage planifié (plan de backfill) · bord gauche foncé, bf : démarrée par le backfill · ligne rouge : maintenant. Ctrl+molette pour zoomer.",
    "&Reset Layout": "&Réinitialiser la disposition",
    "Zoom &In": "Zoom &avant",
    "Zoom &Out": "Zoom a&rrière",
    "&Normal Size": "Taille &normale",
    "Wait": "Attente",
    "CPU Efficiency": "Efficacité CPU",
    "Memory Efficiency": "Efficacité mémoire",
    "Lessons": "Leçons",
    "Start": "Commencer",
    "Check": "Vérifier",
    "Hint": "Indice",
    "minicluster lesson start: copies the lesson's files and starts it": "minicluster lesson start : copie les fichiers de la leçon et la commence",
    "minicluster lesson check: checks the current step on the cluster": "minicluster lesson check : vérifie l’étape en cours sur la grappe",
    "minicluster lesson hint: the next hint for the current step": "minicluster lesson hint : l’indice suivant pour l’étape en cours",
    "minicluster lesson reset: starts the lesson over": "minicluster lesson reset : recommence la leçon",
    "%1 of %2 lessons done.": "%1 leçons terminées sur %2.",
    "Redo step": "Reprendre l’étape",
    "minicluster lesson reset-step: starts the current step again; only what you do from now on "
    "counts for it":
        "minicluster lesson reset-step : reprend l’étape en cours ; seul ce que vous faites "
        "désormais compte pour elle",
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
