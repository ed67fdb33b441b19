<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="fr_FR" sourcelanguage="en">
<context>
    <name>mc::gui::AppOptions</name>
    <message>
        <source>minicluster: a small Slurm cluster on this computer, for learning.</source>
        <translation>minicluster : un petit cluster Slurm sur cet ordinateur, pour apprendre.</translation>
    </message>
    <message>
        <source>The cluster directory (default: the default cluster).</source>
        <translation>Le dossier du cluster (par défaut : le cluster par défaut).</translation>
    </message>
    <message>
        <source>CLUSTER_DIR</source>
        <translation>DOSSIER_CLUSTER</translation>
    </message>
</context>
<context>
    <name>mc::gui::ControllerLink</name>
    <message>
        <source>Not connected to the cluster</source>
        <translation>Non connecté au cluster</translation>
    </message>
    <message>
        <source>Not connected: no cluster controller at %1 (%2); retrying…</source>
        <translation>Non connecté : pas de contrôleur de cluster à %1 (%2) ; nouvel essai…</translation>
    </message>
    <message>
        <source>Not connected: the cluster controller at %1 closed the connection; retrying…</source>
        <translation>Non connecté : le contrôleur du cluster à %1 a fermé la connexion ; nouvel essai…</translation>
    </message>
    <message>
        <source>Connecting to the cluster…</source>
        <translation>Connexion au cluster…</translation>
    </message>
    <message>
        <source>The cluster controller sent a malformed message; reconnecting…</source>
        <translation>Le contrôleur du cluster a envoyé un message mal formé ; reconnexion…</translation>
    </message>
    <message>
        <source>Lost the connection to the cluster controller; reconnecting…</source>
        <translation>Connexion au contrôleur du cluster perdue ; reconnexion…</translation>
    </message>
    <message>
        <source>The cluster controller refused the subscription: %1</source>
        <translation>Le contrôleur du cluster a refusé l’abonnement : %1</translation>
    </message>
    <message>
        <source>Connected to the cluster</source>
        <translation>Connecté au cluster</translation>
    </message>
</context>
<context>
    <name>mc::gui::JobDetailsView</name>
    <message>
        <source>Select a job in the queue to see everything about it.</source>
        <translation>Choisissez un job dans la file d’attente pour tout savoir de lui.</translation>
    </message>
</context>
<context>
    <name>mc::gui::JobExplanation</name>
    <message>
        <source>It waits; Slurm gives the reason “%1”.</source>
        <translation>Il attend ; Slurm donne la raison « %1 ».</translation>
    </message>
    <message>
        <source>It has just been submitted; the scheduler has not looked at it yet.</source>
        <translation>Il vient d’être soumis ; l’ordonnanceur ne l’a pas encore examiné.</translation>
    </message>
    <message>
        <source>It waits for jobs with a higher priority, which will start first.</source>
        <translation>Il attend des jobs plus prioritaires, qui démarreront avant lui.</translation>
    </message>
    <message>
        <source>It is next in line and waits for enough CPUs or memory to become free.</source>
        <translation>Il est le prochain et attend qu’assez de CPU ou de mémoire se libèrent.</translation>
    </message>
    <message>
        <source>It waits for the jobs it depends on (--dependency) to reach the required state.</source>
        <translation>Il attend que les jobs dont il dépend (--dependency) atteignent l’état demandé.</translation>
    </message>
    <message>
        <source>It can never start: a job it depends on ended in a way the dependency does not accept. Cancel it with scancel.</source>
        <translation>Il ne pourra jamais démarrer : un job dont il dépend s’est terminé d’une façon que la dépendance n’accepte pas. Annulez-le avec scancel.</translation>
    </message>
    <message>
        <source>It waits for the start time it was given (--begin).</source>
        <translation>Il attend l’heure de début qu’on lui a donnée (--begin).</translation>
    </message>
    <message>
        <source>It is held by its owner; release it with scontrol release.</source>
        <translation>Son propriétaire le retient ; libérez-le avec scontrol release.</translation>
    </message>
    <message>
        <source>It is held by an administrator.</source>
        <translation>Un administrateur le retient.</translation>
    </message>
    <message>
        <source>Its time limit is longer than the partition allows; it will not start as it is.</source>
        <translation>Sa limite de temps dépasse celle de la partition ; il ne démarrera pas tel quel.</translation>
    </message>
    <message>
        <source>It asks for more nodes than the partition allows; it will not start as it is.</source>
        <translation>Il demande plus de nœuds que la partition n’en permet ; il ne démarrera pas tel quel.</translation>
    </message>
    <message>
        <source>Its partition does not accept jobs to run right now.</source>
        <translation>Sa partition n’accepte pas de jobs à exécuter pour le moment.</translation>
    </message>
    <message>
        <source>Its array runs at most the number of tasks given with %; the others wait.</source>
        <translation>Son tableau exécute au plus le nombre de tâches donné avec % ; les autres attendent.</translation>
    </message>
    <message>
        <source>A node it needs is not available (down or drained).</source>
        <translation>Un nœud dont il a besoin n’est pas disponible (down ou drain).</translation>
    </message>
    <message>
        <source>No node can ever satisfy what it asks for; it will not start as it is.</source>
        <translation>Aucun nœud ne peut satisfaire sa demande ; il ne démarrera pas tel quel.</translation>
    </message>
    <message>
        <source>Its account is not valid for this user or partition.</source>
        <translation>Son compte n’est pas valide pour cet utilisateur ou cette partition.</translation>
    </message>
    <message>
        <source>Its owner already runs as many jobs as the QOS allows.</source>
        <translation>Son propriétaire exécute déjà autant de jobs que la QOS le permet.</translation>
    </message>
    <message>
        <source>Its state is %1.</source>
        <translation>Son état est %1.</translation>
    </message>
    <message>
        <source>Pending: </source>
        <translation>En attente : </translation>
    </message>
    <message>
        <source>Running on %1.</source>
        <translation>En cours sur %1.</translation>
    </message>
    <message>
        <source>Suspended: its processes are stopped and will continue later.</source>
        <translation>Suspendu : ses processus sont arrêtés et reprendront plus tard.</translation>
    </message>
    <message>
        <source>Completing: it has ended and its nodes are being cleaned up.</source>
        <translation>En fin d’exécution : il s’est terminé et ses nœuds sont en cours de nettoyage.</translation>
    </message>
    <message>
        <source>Completed: its script exited with status 0.</source>
        <translation>Terminé : son script a fini avec le code 0.</translation>
    </message>
    <message>
        <source>Cancelled (scancel) before it finished.</source>
        <translation>Annulé (scancel) avant la fin.</translation>
    </message>
    <message>
        <source>Failed: its script was killed by signal %1. Read its error file.</source>
        <translation>Échec : son script a été tué par le signal %1. Lisez son fichier d’erreur.</translation>
    </message>
    <message>
        <source>Failed: its script exited with status %1. Read its error file.</source>
        <translation>Échec : son script a fini avec le code %1. Lisez son fichier d’erreur.</translation>
    </message>
    <message>
        <source>Timed out: it ran longer than its time limit and was stopped. Ask for more time (--time) or make it faster.</source>
        <translation>Temps dépassé : il a tourné plus longtemps que sa limite et a été arrêté. Demandez plus de temps (--time) ou accélérez-le.</translation>
    </message>
    <message>
        <source>Out of memory: it used more memory than it asked for and was killed. Ask for more (--mem).</source>
        <translation>Mémoire épuisée : il a utilisé plus de mémoire que demandé et a été tué. Demandez-en plus (--mem).</translation>
    </message>
    <message>
        <source>Its node failed while it ran.</source>
        <translation>Son nœud est tombé en panne pendant qu’il tournait.</translation>
    </message>
    <message>
        <source>Its state is %1 (reason %2).</source>
        <translation>Son état est %1 (raison %2).</translation>
    </message>
</context>
<context>
    <name>mc::gui::MainWindow</name>
    <message>
        <source>minicluster</source>
        <translation>minicluster</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>File d’attente</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nœuds</translation>
    </message>
    <message>
        <source>Job details</source>
        <translation>Détails du job</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>New &amp;Terminal Tab</source>
        <translation>Nouvel onglet &amp;terminal</translation>
    </message>
    <message>
        <source>Open the Shell in &amp;My Terminal</source>
        <translation>Ouvrir le shell dans &amp;mon terminal</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Langue</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>Langue du système</translation>
    </message>
    <message>
        <source>Open the shell in my terminal</source>
        <translation>Ouvrir le shell dans mon terminal</translation>
    </message>
    <message>
        <source>%1 pending, %2 running</source>
        <translation>%1 en attente, %2 en cours</translation>
    </message>
</context>
<context>
    <name>mc::gui::NodesView</name>
    <message>
        <source>Click a node to see the jobs on it.</source>
        <translation>Cliquez sur un nœud pour voir ses jobs.</translation>
    </message>
    <message>
        <source>%1: %2, partitions %3. CPUs %4 allocated/total, memory %5 MiB, GPUs %6.</source>
        <translation>%1 : %2, partitions %3. CPU %4 alloués/total, mémoire %5 Mio, GPU %6.</translation>
    </message>
    <message>
        <source>No job runs on it.</source>
        <translation>Aucun job n’y tourne.</translation>
    </message>
    <message>
        <source>Job %1 (%2): CPUs %3</source>
        <translation>Job %1 (%2) : CPU %3</translation>
    </message>
</context>
<context>
    <name>mc::gui::QueueView</name>
    <message>
        <source>All users</source>
        <translation>Tous les utilisateurs</translation>
    </message>
    <message>
        <source>My jobs (%1)</source>
        <translation>Mes jobs (%1)</translation>
    </message>
    <message>
        <source>All partitions</source>
        <translation>Toutes les partitions</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Tous les états</translation>
    </message>
    <message>
        <source>Show finished jobs</source>
        <translation>Afficher les jobs terminés</translation>
    </message>
    <message>
        <source>Like squeue -t all: also list the jobs that ended in the last 5 minutes.</source>
        <translation>Comme squeue -t all : liste aussi les jobs terminés depuis moins de 5 minutes.</translation>
    </message>
    <message>
        <source>Not connected to the cluster.</source>
        <translation>Non connecté au cluster.</translation>
    </message>
    <message>
        <source>Start the cluster with “minicluster up”; this window connects to it as soon as it runs.</source>
        <translation>Démarrez le cluster avec « minicluster up » ; cette fenêtre s’y connecte dès qu’il tourne.</translation>
    </message>
</context>
<context>
    <name>mc::gui::TerminalTabs</name>
    <message>
        <source>login1</source>
        <translation>login1</translation>
    </message>
    <message>
        <source>%1 (ended)</source>
        <translation>%1 (terminé)</translation>
    </message>
    <message>
        <source>No terminal program was found (tried %1). Run this in your own terminal:
%2</source>
        <translation>Aucun programme de terminal trouvé (essayés : %1). Lancez ceci dans votre terminal :
%2</translation>
    </message>
</context>
<context>
    <name>mc::term::PtyProcess</name>
    <message>
        <source>%1: command not found</source>
        <translation>%1 : commande introuvable</translation>
    </message>
    <message>
        <source>cannot open a terminal: %1</source>
        <translation>impossible d’ouvrir un terminal : %1</translation>
    </message>
</context>
<context>
    <name>mc::term::TerminalSession</name>
    <message>
        <source>The shell has ended (exit status %1).</source>
        <translation>Le shell s’est terminé (code de sortie %1).</translation>
    </message>
</context>
<context>
    <name>mc::term::TerminalView</name>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Coller</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>Tout sélectionner</translation>
    </message>
</context>
</TS>