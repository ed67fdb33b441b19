<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="fr_FR" sourcelanguage="en">
<context>
    <name>mc::gui::AccountingModel</name>
    <message>
        <source>Wait</source>
        <translation>Attente</translation>
    </message>
    <message>
        <source>CPU Efficiency</source>
        <translation>Efficacité CPU</translation>
    </message>
    <message>
        <source>Memory Efficiency</source>
        <translation>Efficacité mémoire</translation>
    </message>
</context>
<context>
    <name>mc::gui::AppOptions</name>
    <message>
        <source>minicluster: a small Slurm cluster on this computer, for learning.</source>
        <translation>minicluster : une petite grappe Slurm sur cet ordinateur, pour apprendre.</translation>
    </message>
    <message>
        <source>The cluster directory (default: the default cluster).</source>
        <translation>Le dossier de la grappe (par défaut : la grappe par défaut).</translation>
    </message>
    <message>
        <source>CLUSTER_DIR</source>
        <translation>DOSSIER_CLUSTER</translation>
    </message>
</context>
<context>
    <name>mc::gui::ArrayGroupModel</name>
    <message>
        <source>No task of this array has started yet.</source>
        <translation>Aucune tâche de ce tableau n’a encore démarré.</translation>
    </message>
    <message>
        <source>Started tasks: %1</source>
        <translation>Tâches démarrées : %1</translation>
    </message>
    <message>
        <source>1 task: %1</source>
        <translation>1 tâche : %1</translation>
    </message>
    <message>
        <source>%1 tasks: %2</source>
        <translation>%1 tâches : %2</translation>
    </message>
</context>
<context>
    <name>mc::gui::ControllerLink</name>
    <message>
        <source>Not connected to the cluster</source>
        <translation>Non connecté à la grappe</translation>
    </message>
    <message>
        <source>Not connected: no cluster controller at %1 (%2); retrying…</source>
        <translation>Non connecté : pas de contrôleur de grappe à %1 (%2) ; nouvel essai…</translation>
    </message>
    <message>
        <source>Not connected: the cluster controller at %1 closed the connection; retrying…</source>
        <translation>Non connecté : le contrôleur de la grappe à %1 a fermé la connexion ; nouvel essai…</translation>
    </message>
    <message>
        <source>Connecting to the cluster…</source>
        <translation>Connexion à la grappe…</translation>
    </message>
    <message>
        <source>The cluster controller sent a malformed message; reconnecting…</source>
        <translation>Le contrôleur de la grappe a envoyé un message mal formé ; reconnexion…</translation>
    </message>
    <message>
        <source>Lost the connection to the cluster controller; reconnecting…</source>
        <translation>Connexion au contrôleur de la grappe perdue ; reconnexion…</translation>
    </message>
    <message>
        <source>The cluster controller refused the subscription: %1</source>
        <translation>Le contrôleur de la grappe a refusé l’abonnement : %1</translation>
    </message>
    <message>
        <source>Connected to the cluster</source>
        <translation>Connecté à la grappe</translation>
    </message>
</context>
<context>
    <name>mc::gui::FilesystemsView</name>
    <message>
        <source>Quotas are not available yet: the storage node has not published a usage snapshot (%1).</source>
        <translation>Les quotas ne sont pas encore disponibles : le nœud de stockage n’a pas publié de relevé d’utilisation (%1).</translation>
    </message>
    <message>
        <source>Measured by the storage node at %1 (cluster clock), %2 ago.</source>
        <translation>Mesuré par le nœud de stockage à %1 (horloge de la grappe), il y a %2.</translation>
    </message>
    <message>
        <source>/%1 (group %2)</source>
        <translation>/%1 (groupe %2)</translation>
    </message>
    <message>
        <source>/%1 (user %2)</source>
        <translation>/%1 (utilisateur %2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>%1, no quota</source>
        <translation>%1, sans quota</translation>
    </message>
    <message>
        <source>%1 of %2 files</source>
        <translation>%1 fichiers sur %2</translation>
    </message>
    <message>
        <source>%1 files, no quota</source>
        <translation>%1 fichiers, sans quota</translation>
    </message>
    <message>
        <source>not there</source>
        <translation>absent</translation>
    </message>
    <message>
        <source>over %1 files</source>
        <translation>plus de %1 fichiers</translation>
    </message>
    <message>
        <source>unused for %1</source>
        <translation>inutilisé depuis %1</translation>
    </message>
    <message>
        <source>not created</source>
        <translation>pas créé</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Usage and quotas (diskusage_report)</source>
        <translation>Utilisation et quotas (diskusage_report)</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Système de fichiers</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>Espace</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Fichiers</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Chemin</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Âge</translation>
    </message>
    <message>
        <source>Purge</source>
        <translation>Purge</translation>
    </message>
    <message>
        <source>$SLURM_TMPDIR of running jobs (node-local disk, removed when the job ends)</source>
        <translation>$SLURM_TMPDIR des tâches en cours (disque local du nœud, supprimé à la fin de la tâche)</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Tâche</translation>
    </message>
    <message>
        <source>$SLURM_TMPDIR</source>
        <translation>$SLURM_TMPDIR</translation>
    </message>
    <message>
        <source>purge candidate (goes on the notice at the next check): deleted from %1 at the earliest</source>
        <translation>à purger (listé dans l’avis au prochain contrôle) : supprimé au plus tôt le %1</translation>
    </message>
    <message>
        <source>purge candidate (listed %1): deleted from %2</source>
        <translation>à purger (listé le %1) : supprimé à partir du %2</translation>
    </message>
    <message>
        <source>purge due: deleted at the storage node's next check</source>
        <translation>purge échue : supprimé au prochain contrôle du nœud de stockage</translation>
    </message>
    <message>
        <source>The cluster clock is %1 ahead of this computer's (%2): ages and the purge count that time.</source>
        <translation>L’horloge de la grappe a %1 d’avance sur celle de cet ordinateur (%2) : les âges et la purge comptent ce temps.</translation>
    </message>
    <message>
        <source>Last used %1 on the cluster clock.</source>
        <translation>Dernière utilisation le %1, à l’horloge de la grappe.</translation>
    </message>
    <message>
        <source>Your files, the longest unused first, aged on the cluster clock (the scratch purge removes files unused for too long)</source>
        <translation>Vos fichiers, les plus longtemps inutilisés d’abord, leur âge compté à l’horloge de la grappe (la purge de scratch supprime les fichiers inutilisés depuis trop longtemps)</translation>
    </message>
    <message>
        <source>1 file</source>
        <translation>1 fichier</translation>
    </message>
    <message>
        <source>%1 files</source>
        <translation>%1 fichiers</translation>
    </message>
    <message>
        <source>1 file on the purge notice</source>
        <translation>1 fichier dans l’avis de purge</translation>
    </message>
    <message>
        <source>%1 files on the purge notice</source>
        <translation>%1 fichiers dans l’avis de purge</translation>
    </message>
</context>
<context>
    <name>mc::gui::HistoryView</name>
    <message>
        <source>The history is not available: %1</source>
        <translation>L’historique n’est pas disponible : %1</translation>
    </message>
    <message>
        <source>Time waited before starting</source>
        <translation>Temps d’attente avant le démarrage</translation>
    </message>
    <message>
        <source>CPU efficiency (%)</source>
        <translation>Efficacité CPU (%)</translation>
    </message>
    <message>
        <source>Memory efficiency (%)</source>
        <translation>Efficacité mémoire (%)</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Tâches</translation>
    </message>
    <message>
        <source>jobs</source>
        <translation>tâches</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Only my jobs</source>
        <translation>Seulement mes tâches</translation>
    </message>
    <message>
        <source>Press Refresh to read the accounting database (what sacct reads).</source>
        <translation>Cliquez sur Actualiser pour lire la base de comptabilité (ce que lit sacct).</translation>
    </message>
    <message>
        <source>0–1m</source>
        <translation>0–1 min</translation>
    </message>
    <message>
        <source>1–5m</source>
        <translation>1–5 min</translation>
    </message>
    <message>
        <source>5–15m</source>
        <translation>5–15 min</translation>
    </message>
    <message>
        <source>15–60m</source>
        <translation>15–60 min</translation>
    </message>
    <message>
        <source>1–4h</source>
        <translation>1–4 h</translation>
    </message>
    <message>
        <source>4h+</source>
        <translation>4 h et +</translation>
    </message>
    <message>
        <source>percent (bins of 10)</source>
        <translation>pour cent (tranches de 10)</translation>
    </message>
    <message>
        <source>1 job in the accounting database.</source>
        <translation>1 tâche dans la base de comptabilité.</translation>
    </message>
    <message>
        <source>%1 jobs in the accounting database.</source>
        <translation>%1 tâches dans la base de comptabilité.</translation>
    </message>
</context>
<context>
    <name>mc::gui::InstructorPanel</name>
    <message>
        <source>Cluster clock: %1, running at %2× real time.</source>
        <translation>Horloge de la grappe : %1, à %2× le temps réel.</translation>
    </message>
    <message>
        <source>Choose a node first.</source>
        <translation>Choisissez d’abord un nœud.</translation>
    </message>
    <message>
        <source>Give a reason: Slurm requires one to drain, fail or down a node (sinfo -R shows it).</source>
        <translation>Donnez une raison : Slurm en exige une pour drainer, mettre en panne ou arrêter un nœud (sinfo -R l’affiche).</translation>
    </message>
    <message>
        <source>%1: %2 done.</source>
        <translation>%1 : %2 fait.</translation>
    </message>
    <message>
        <source>%1: %2 refused: %3</source>
        <translation>%1 : %2 refusé : %3</translation>
    </message>
    <message>
        <source>Background users are submitting.</source>
        <translation>Les utilisateurs d’arrière-plan soumettent des tâches.</translation>
    </message>
    <message>
        <source>No background load.</source>
        <translation>Pas de charge d’arrière-plan.</translation>
    </message>
    <message>
        <source>No classmates are defined in etc/minicluster.conf: no background load.</source>
        <translation>Aucun camarade n’est défini dans etc/minicluster.conf : pas de charge d’arrière-plan.</translation>
    </message>
    <message>
        <source>%1 submitted, %2 refused.</source>
        <translation>%1 soumis, %2 refusés.</translation>
    </message>
    <message>
        <source>Last refusal: %1</source>
        <translation>Dernier refus : %1</translation>
    </message>
    <message>
        <source>Workload file (SWF)</source>
        <translation>Fichier de charge (SWF)</translation>
    </message>
    <message>
        <source>Standard Workload Format (*.swf *.txt);;All files (*)</source>
        <translation>Standard Workload Format (*.swf *.txt);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Cannot read %1.</source>
        <translation>Impossible de lire %1.</translation>
    </message>
    <message>
        <source>%1 has no job lines in the Standard Workload Format.</source>
        <translation>%1 n’a aucune ligne de tâche au format Standard Workload Format.</translation>
    </message>
    <message>
        <source>Resetting needs the minicluster command, which was not found next to this program.</source>
        <translation>La réinitialisation demande la commande minicluster, introuvable à côté de ce programme.</translation>
    </message>
    <message>
        <source>Reset the cluster</source>
        <translation>Réinitialiser la grappe</translation>
    </message>
    <message>
        <source>Stopping the cluster…</source>
        <translation>Arrêt de la grappe…</translation>
    </message>
    <message>
        <source>minicluster down failed: %1</source>
        <translation>minicluster down a échoué : %1</translation>
    </message>
    <message>
        <source>Starting the cluster again…</source>
        <translation>Redémarrage de la grappe…</translation>
    </message>
    <message>
        <source>The cluster was reset: empty queue, no history.</source>
        <translation>La grappe a été réinitialisée : file vide, aucun historique.</translation>
    </message>
    <message>
        <source>minicluster up failed: %1</source>
        <translation>minicluster up a échoué : %1</translation>
    </message>
    <message>
        <source>Cluster clock</source>
        <translation>Horloge de la grappe</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Vitesse</translation>
    </message>
    <message>
        <source>Set speed</source>
        <translation>Régler la vitesse</translation>
    </message>
    <message>
        <source>Fast-forward</source>
        <translation>Avance rapide</translation>
    </message>
    <message>
        <source> days</source>
        <translation> jours</translation>
    </message>
    <message>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <source>The scheduler, time limits and the scratch purge follow the cluster clock.</source>
        <translation>L’ordonnanceur, les limites de temps et la purge de scratch suivent l’horloge de la grappe.</translation>
    </message>
    <message>
        <source>Nodes (as the instructor, %1)</source>
        <translation>Nœuds (en tant qu’enseignant, %1)</translation>
    </message>
    <message>
        <source>Reason, shown by sinfo -R</source>
        <translation>Raison, affichée par sinfo -R</translation>
    </message>
    <message>
        <source>Drain</source>
        <translation>Drainer</translation>
    </message>
    <message>
        <source>Fail</source>
        <translation>Panne</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Background users</source>
        <translation>Utilisateurs d’arrière-plan</translation>
    </message>
    <message>
        <source>Generator (jobs per minute)</source>
        <translation>Générateur (tâches par minute)</translation>
    </message>
    <message>
        <source>Start the generator</source>
        <translation>Démarrer le générateur</translation>
    </message>
    <message>
        <source>Workload file replay speed</source>
        <translation>Vitesse de rejeu du fichier de charge</translation>
    </message>
    <message>
        <source>Replay a workload file (SWF)…</source>
        <translation>Rejouer un fichier de charge (SWF)…</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Réinitialisation</translation>
    </message>
    <message>
        <source>Reset the cluster…</source>
        <translation>Réinitialiser la grappe…</translation>
    </message>
    <message>
        <source>Stop the cluster, delete its queue and its whole job history, and start it again? The cluster clock goes back to real time. Files in home, project and scratch are kept.</source>
        <translation>Arrêter la grappe, effacer sa file d’attente et tout son historique de tâches, puis la redémarrer ? L’horloge de la grappe revient à l’heure réelle. Les fichiers de home, project et scratch sont conservés.</translation>
    </message>
</context>
<context>
    <name>mc::gui::JobDetailsView</name>
    <message>
        <source>Select a job in the queue to see everything about it.</source>
        <translation>Choisissez une tâche dans la file d’attente pour tout savoir d’elle.</translation>
    </message>
</context>
<context>
    <name>mc::gui::JobExplanation</name>
    <message>
        <source>It waits; Slurm gives the reason “%1”.</source>
        <translation>Elle attend ; Slurm donne la raison « %1 ».</translation>
    </message>
    <message>
        <source>It has just been submitted; the scheduler has not looked at it yet.</source>
        <translation>Elle vient d’être soumise ; l’ordonnanceur ne l’a pas encore examinée.</translation>
    </message>
    <message>
        <source>It waits for jobs with a higher priority, which will start first.</source>
        <translation>Elle attend des tâches plus prioritaires, qui démarreront avant elle.</translation>
    </message>
    <message>
        <source>It is next in line and waits for enough CPUs or memory to become free.</source>
        <translation>Elle est la prochaine et attend qu’assez de CPU ou de mémoire se libèrent.</translation>
    </message>
    <message>
        <source>It waits for the jobs it depends on (--dependency) to reach the required state.</source>
        <translation>Elle attend que les tâches dont elle dépend (--dependency) atteignent l’état demandé.</translation>
    </message>
    <message>
        <source>It can never start: a job it depends on ended in a way the dependency does not accept. Cancel it with scancel.</source>
        <translation>Elle ne pourra jamais démarrer : une tâche dont elle dépend s’est terminée d’une façon que la dépendance n’accepte pas. Annulez-la avec scancel.</translation>
    </message>
    <message>
        <source>It waits for the start time it was given (--begin).</source>
        <translation>Elle attend l’heure de début qu’on lui a donnée (--begin).</translation>
    </message>
    <message>
        <source>It is held by its owner; release it with scontrol release.</source>
        <translation>Son propriétaire la retient ; libérez-la avec scontrol release.</translation>
    </message>
    <message>
        <source>It is held by an administrator.</source>
        <translation>Un administrateur la retient.</translation>
    </message>
    <message>
        <source>Its time limit is longer than the partition allows; it will not start as it is.</source>
        <translation>Sa limite de temps dépasse celle de la partition ; elle ne démarrera pas telle quelle.</translation>
    </message>
    <message>
        <source>It asks for more nodes than the partition allows; it will not start as it is.</source>
        <translation>Elle demande plus de nœuds que la partition n’en permet ; elle ne démarrera pas telle quelle.</translation>
    </message>
    <message>
        <source>Its partition does not accept jobs to run right now.</source>
        <translation>Sa partition n’accepte pas de tâches à exécuter pour le moment.</translation>
    </message>
    <message>
        <source>Its array runs at most the number of tasks given with %; the others wait.</source>
        <translation>Son tableau exécute au plus le nombre de tâches donné avec % ; les autres attendent.</translation>
    </message>
    <message>
        <source>A node it needs is not available (down or drained).</source>
        <translation>Un nœud dont elle a besoin n’est pas disponible (down ou drain).</translation>
    </message>
    <message>
        <source>No node can ever satisfy what it asks for; it will not start as it is.</source>
        <translation>Aucun nœud ne peut satisfaire sa demande ; elle ne démarrera pas telle quelle.</translation>
    </message>
    <message>
        <source>Its account is not valid for this user or partition.</source>
        <translation>Son compte n’est pas valide pour cet utilisateur ou cette partition.</translation>
    </message>
    <message>
        <source>Its owner already runs as many jobs as the QOS allows.</source>
        <translation>Son propriétaire exécute déjà autant de tâches que la QOS le permet.</translation>
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
        <translation>Suspendue : ses processus sont arrêtés et reprendront plus tard.</translation>
    </message>
    <message>
        <source>Completing: it has ended and its nodes are being cleaned up.</source>
        <translation>En fin d’exécution : elle s’est terminée et ses nœuds sont en cours de nettoyage.</translation>
    </message>
    <message>
        <source>Completed: its script exited with status 0.</source>
        <translation>Terminée : son script a fini avec le code 0.</translation>
    </message>
    <message>
        <source>Cancelled (scancel) before it finished.</source>
        <translation>Annulée (scancel) avant la fin.</translation>
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
        <translation>Temps dépassé : elle a tourné plus longtemps que sa limite et a été arrêtée. Demandez plus de temps (--time) ou accélérez-la.</translation>
    </message>
    <message>
        <source>Out of memory: it used more memory than it asked for and was killed. Ask for more (--mem).</source>
        <translation>Mémoire épuisée : elle a utilisé plus de mémoire que demandé et a été tuée. Demandez-en plus (--mem).</translation>
    </message>
    <message>
        <source>Its node failed while it ran.</source>
        <translation>Son nœud est tombé en panne pendant qu’elle tournait.</translation>
    </message>
    <message>
        <source>Its state is %1 (reason %2).</source>
        <translation>Son état est %1 (raison %2).</translation>
    </message>
</context>
<context>
    <name>mc::gui::LessonsView</name>
    <message>
        <source>%1 of %2 lessons done.</source>
        <translation>%1 leçons terminées sur %2.</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Commencer</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>Indice</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Réinitialisation</translation>
    </message>
    <message>
        <source>minicluster lesson start: copies the lesson's files and starts it</source>
        <translation>minicluster lesson start : copie les fichiers de la leçon et la commence</translation>
    </message>
    <message>
        <source>minicluster lesson check: checks the current step on the cluster</source>
        <translation>minicluster lesson check : vérifie l’étape en cours sur la grappe</translation>
    </message>
    <message>
        <source>minicluster lesson hint: the next hint for the current step</source>
        <translation>minicluster lesson hint : l’indice suivant pour l’étape en cours</translation>
    </message>
    <message>
        <source>minicluster lesson reset: starts the lesson over</source>
        <translation>minicluster lesson reset : recommence la leçon</translation>
    </message>
    <message>
        <source>Redo step</source>
        <translation>Reprendre l’étape</translation>
    </message>
    <message>
        <source>minicluster lesson reset-step: starts the current step again; only what you do from now on counts for it</source>
        <translation>minicluster lesson reset-step : reprend l’étape en cours ; seul ce que vous faites désormais compte pour elle</translation>
    </message>
</context>
<context>
    <name>mc::gui::MainWindow</name>
    <message>
        <source>Users are not isolated from each other</source>
        <translation>Les utilisateurs ne sont pas isolés les uns des autres</translation>
    </message>
    <message>
        <source>Every user of this cluster runs as your own user on this computer: classmates can read, change and kill each other's files and jobs. Run minicluster as root to give each user an id of its own.</source>
        <translation>Chaque utilisateur de cette grappe tourne sous votre propre utilisateur sur cet ordinateur : les camarades peuvent lire, modifier et tuer les fichiers et les tâches des autres. Lancez minicluster en tant que root pour donner à chaque utilisateur un identifiant propre.</translation>
    </message>
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
        <translation>Détails de la tâche</translation>
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
    <message>
        <source>Timeline</source>
        <translation>Chronologie</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historique</translation>
    </message>
    <message>
        <source>Filesystems</source>
        <translation>Systèmes de fichiers</translation>
    </message>
    <message>
        <source>Submit</source>
        <translation>Soumettre</translation>
    </message>
    <message>
        <source>Instructor</source>
        <translation>Enseignant</translation>
    </message>
    <message>
        <source>Open in my terminal</source>
        <translation>Ouvrir dans mon terminal</translation>
    </message>
    <message>
        <source>Open the same login shell in your own terminal program</source>
        <translation>Ouvrir le même shell de connexion dans votre propre terminal</translation>
    </message>
    <message>
        <source>Run in the terminal</source>
        <translation>Lancer dans le terminal</translation>
    </message>
    <message>
        <source>This window has no terminal; run this in your shell:
%1</source>
        <translation>Cette fenêtre n’a pas de terminal ; lancez ceci dans votre shell :
%1</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>&amp;Réinitialiser la disposition</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Zoom &amp;avant</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Zoom a&amp;rrière</translation>
    </message>
    <message>
        <source>&amp;Normal Size</source>
        <translation>Taille &amp;normale</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>Leçons</translation>
    </message>
</context>
<context>
    <name>mc::gui::NodesView</name>
    <message>
        <source>Click a node to see the jobs on it.</source>
        <translation>Cliquez sur un nœud pour voir ses tâches.</translation>
    </message>
    <message>
        <source>%1: %2, partitions %3. CPUs %4 allocated/total, memory %5 MiB, GPUs %6.</source>
        <translation>%1 : %2, partitions %3. CPU %4 alloués/total, mémoire %5 Mio, GPU %6.</translation>
    </message>
    <message>
        <source>No job runs on it.</source>
        <translation>Aucune tâche n’y tourne.</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>Raison : %1</translation>
    </message>
    <message>
        <source>Job %1 (%2): CPUs %3, memory %4 MiB, GPUs %5</source>
        <translation>Tâche %1 (%2) : CPU %3, mémoire %4 Mio, GPU %5</translation>
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
        <translation>Mes tâches (%1)</translation>
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
        <translation>Afficher les tâches terminées</translation>
    </message>
    <message>
        <source>Like squeue -t all: also list the jobs that ended in the last 5 minutes.</source>
        <translation>Comme squeue -t all : liste aussi les tâches terminées depuis moins de 5 minutes.</translation>
    </message>
    <message>
        <source>Not connected to the cluster.</source>
        <translation>Non connecté à la grappe.</translation>
    </message>
    <message>
        <source>Start the cluster with “minicluster up”; this window connects to it as soon as it runs.</source>
        <translation>Démarrez la grappe avec « minicluster up » ; cette fenêtre s’y connecte dès qu’elle tourne.</translation>
    </message>
</context>
<context>
    <name>mc::gui::RequestClient</name>
    <message>
        <source>The cluster controller is not running (%1).</source>
        <translation>Le contrôleur de la grappe ne tourne pas (%1).</translation>
    </message>
    <message>
        <source>The cluster controller closed the connection.</source>
        <translation>Le contrôleur de la grappe a fermé la connexion.</translation>
    </message>
    <message>
        <source>The cluster controller did not answer.</source>
        <translation>Le contrôleur de la grappe n’a pas répondu.</translation>
    </message>
    <message>
        <source>The cluster controller sent a malformed reply.</source>
        <translation>Le contrôleur de la grappe a envoyé une réponse mal formée.</translation>
    </message>
    <message>
        <source>The cluster controller does not support “%1” yet.</source>
        <translation>Le contrôleur de la grappe ne prend pas encore en charge « %1 ».</translation>
    </message>
    <message>
        <source>The cluster controller refused the request.</source>
        <translation>Le contrôleur de la grappe a refusé la demande.</translation>
    </message>
</context>
<context>
    <name>mc::gui::SubmitForm</name>
    <message>
        <source>Choose a script first: sbatch needs one.</source>
        <translation>Choisissez d’abord un script : sbatch en a besoin.</translation>
    </message>
    <message>
        <source>Typed in the terminal; sbatch's answer is there.</source>
        <translation>Tapé dans le terminal ; la réponse de sbatch s’y trouve.</translation>
    </message>
    <message>
        <source>Could not copy the sample job to %1.</source>
        <translation>Impossible de copier la tâche d’exemple vers %1.</translation>
    </message>
    <message>
        <source>(your own script)</source>
        <translation>(votre propre script)</translation>
    </message>
    <message>
        <source>(no sample jobs installed: give your own script)</source>
        <translation>(aucune tâche d’exemple installée : indiquez votre propre script)</translation>
    </message>
    <message>
        <source>Sample job</source>
        <translation>Tâche d’exemple</translation>
    </message>
    <message>
        <source>A sample job of minicluster, copied into your home</source>
        <translation>Une tâche d’exemple de minicluster, copiée dans votre home</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>Script</translation>
    </message>
    <message>
        <source>The batch script, as your shell sees its path</source>
        <translation>Le script batch, avec le chemin que voit votre shell</translation>
    </message>
    <message>
        <source>job.sh</source>
        <translation>job.sh</translation>
    </message>
    <message>
        <source>Job name</source>
        <translation>Nom de la tâche</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Compte</translation>
    </message>
    <message>
        <source>--account (empty: your default account)</source>
        <translation>--account (vide : votre compte par défaut)</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Limite de temps</translation>
    </message>
    <message>
        <source>--time: minutes, or [days-]hours:minutes:seconds</source>
        <translation>--time : minutes, ou [jours-]heures:minutes:secondes</translation>
    </message>
    <message>
        <source>Memory per node</source>
        <translation>Mémoire par nœud</translation>
    </message>
    <message>
        <source>--mem, with a unit: 500M, 2G</source>
        <translation>--mem, avec une unité : 500M, 2G</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Tâches</translation>
    </message>
    <message>
        <source>--ntasks (0: not given)</source>
        <translation>--ntasks (0 : non précisé)</translation>
    </message>
    <message>
        <source>CPUs per task</source>
        <translation>CPU par tâche</translation>
    </message>
    <message>
        <source>--cpus-per-task (0: not given)</source>
        <translation>--cpus-per-task (0 : non précisé)</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>GPU par nœud</translation>
    </message>
    <message>
        <source>Array</source>
        <translation>Tableau</translation>
    </message>
    <message>
        <source>--array, e.g. 1-10%2</source>
        <translation>--array, par ex. 1-10%2</translation>
    </message>
    <message>
        <source>Dependency</source>
        <translation>Dépendance</translation>
    </message>
    <message>
        <source>--dependency, e.g. afterok:123</source>
        <translation>--dependency, par ex. afterok:123</translation>
    </message>
    <message>
        <source>The command this form runs (type it yourself next time):</source>
        <translation>La commande que lance ce formulaire (tapez-la vous-même la prochaine fois) :</translation>
    </message>
    <message>
        <source>Run in the terminal</source>
        <translation>Lancer dans le terminal</translation>
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
    <name>mc::gui::TimelineView</name>
    <message>
        <source>finished</source>
        <translation>terminé</translation>
    </message>
    <message>
        <source>running (block ends at its time limit)</source>
        <translation>en cours (le bloc finit à sa limite de temps)</translation>
    </message>
    <message>
        <source>planned by the scheduler</source>
        <translation>planifié par l’ordonnanceur</translation>
    </message>
    <message>
        <source>now</source>
        <translation>maintenant</translation>
    </message>
    <message>
        <source>Job %1 (%2, %3): %4
%5 → %6</source>
        <translation>Tâche %1 (%2, %3) : %4
%5 → %6</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Zoom avant</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Zoom arrière</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Maintenant</translation>
    </message>
    <message>
        <source>not placed</source>
        <translation>non placé</translation>
    </message>
    <message>
        <source>Faded: finished · solid: running, up to its time limit · hatched: planned start (backfill plan) · dark left edge, bf: started by backfill · red line: now. Ctrl+wheel zooms.</source>
        <translation>Pâle : terminée · plein : en cours, jusqu’à sa limite de temps · hachuré : démarrage planifié (plan de backfill) · bord gauche foncé, bf : démarrée par le backfill · ligne rouge : maintenant. Ctrl+molette pour zoomer.</translation>
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