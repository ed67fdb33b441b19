#pragma once
// The instructor panel: what a teacher changes while the class watches.
//  - The cluster clock: its speed (policies such as the scratch purge and time limits follow
//    it) and a fast-forward by days and hours (the `clock` request).
//  - A node: drain, fail, set down or resume it with a reason (`node_update`, as the
//    instructor "prof", which the controller accepts as an administrator).
//  - Background users: classmates submitting load from a generator or a workload file (SWF).
//  - Reset: after asking, `minicluster down`, then (once every daemon of the cluster is gone)
//    deletes the queue, the accounting and the clock (state/ctld.sqlite), the storage node's
//    journal of that clock and its purge notices, and `minicluster up` with the settings the
//    cluster was started with (--sandbox, --limits, --time-scale from run/noded-args). Files in
//    home, project and scratch are kept. The app reconnects by itself.
// Every answer of the controller is shown as it is; an op it does not have yet is said so.

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QStringList>
#include <QWidget>

#include <chrono>
#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace mc::gui {

class BackgroundLoad;
class NodeTableModel;
class RequestClient;

class InstructorPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr const char *kInstructor = "prof";
    // How long a reset waits for the daemons to stop after `down`, polling every kStopPoll.
    static constexpr std::chrono::milliseconds kStopTimeout{10000};
    static constexpr std::chrono::milliseconds kStopPoll{100};

    // `launcher` and `launcherArguments` (e.g. {"--dir", DIR}): how to run `minicluster down`
    // and `up` for a reset (empty launcher: no reset). `users`: the classmates who submit the
    // background load.
    InstructorPanel(RequestClient *requests, NodeTableModel *nodes, QString clusterDir,
        QString launcher, QStringList launcherArguments, QStringList users,
        QWidget *parent = nullptr);

    BackgroundLoad *backgroundLoad() const { return m_load; }
    QString clockText() const;
    QString nodeResultText() const;
    QString loadText() const;
    QString resetText() const;

    // The cluster's users from etc/minicluster.conf (its User= lines, sched::parseSiteUsers),
    // in file order.
    static QStringList usersOfCluster(const QString &clusterDir);

    // Sends a `clock` request: `speed` > 0 sets the rate, `advance` > 0 fast-forwards.
    void setClock(double speed, qint64 advance);
    // Sends `node_update` for `node` with `state` ("drain", "fail", "down", "resume").
    void updateNode(const QString &node, const QString &state, const QString &reason);
    // The clock moved (a `clock` event or reply). Between such moves the label ticks on at
    // `speed` from `now`, once a second.
    void showClock(qint64 now, double speed);

    // `--sandbox`, `--limits` and `--time-scale` with their values, as `minicluster up`
    // recorded them in <clusterDir>/run/noded-args (empty when there is none).
    static QStringList startSettings(const QString &clusterDir);
    // Pids of the cluster's daemons still running (from run/*.pid).
    static QList<qint64> runningDaemons(const QString &clusterDir);

Q_SIGNALS:
    // A reset finished: the cluster runs again with an empty queue and no history.
    void clusterReset();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void renderClock(); // the label at m_clockNow + the wall time since, at m_clockSpeed
    void refreshNodeNames();
    void showLoad();
    void loadWorkloadFile();
    void resetCluster();
    void finishReset(const QString &status);
    // Runs the launcher with `arguments`; `done` gets its exit code (-1: did not start) and
    // output.
    void runLauncher(const QStringList &arguments, std::function<void(int, const QString &)> done);
    void waitForDaemonsToStop(QDeadlineTimer deadline, std::function<void()> then);
    static void removeClusterState(const QString &clusterDir);
    int largestNodeCpus() const;

    RequestClient *m_requests;
    NodeTableModel *m_nodes;
    QString m_clusterDir;
    QString m_launcher;
    QStringList m_launcherArguments;
    QStringList m_users;
    BackgroundLoad *m_load;
    qint64 m_clockNow = 0;
    double m_clockSpeed = 0;
    QElapsedTimer m_clockSince; // wall time since m_clockNow was told
    QString m_clockError;

    QGroupBox *m_clockBox;
    QLabel *m_speedLabel;
    QDoubleSpinBox *m_speed;
    QPushButton *m_setSpeed;
    QLabel *m_advanceLabel;
    QSpinBox *m_days;
    QSpinBox *m_hours;
    QPushButton *m_advance;
    QLabel *m_clock;

    QGroupBox *m_nodeBox;
    QComboBox *m_node;
    QLineEdit *m_reason;
    QPushButton *m_drain;
    QPushButton *m_fail;
    QPushButton *m_down;
    QPushButton *m_resume;
    QLabel *m_nodeResult;

    QGroupBox *m_loadBox;
    QLabel *m_rateLabel;
    QDoubleSpinBox *m_rate;
    QPushButton *m_generate;
    QLabel *m_replayLabel;
    QDoubleSpinBox *m_replaySpeed;
    QPushButton *m_replay;
    QPushButton *m_stopLoad;
    QLabel *m_loadStatus;

    QGroupBox *m_resetBox;
    QPushButton *m_reset;
    QLabel *m_resetStatus;
};

} // namespace mc::gui
