#pragma once
// The instructor panel: what a teacher changes while the class watches.
//  - The cluster clock: its speed (policies such as the scratch purge and time limits follow
//    it) and a fast-forward by days and hours (the `clock` request).
//  - A node: drain, fail, set down or resume it with a reason (`node_update`, as the
//    instructor "prof", which the controller accepts as an administrator).
//  - Background users: classmates submitting load from a generator or a workload file (SWF).
//  - Reset: stops the cluster, deletes its queue and accounting database (state/ctld.sqlite)
//    and starts it again, after asking; files in home, project and scratch are kept.
// Every answer of the controller is shown as it is; an op it does not have yet is said so.

#include <QStringList>
#include <QWidget>

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

    // The cluster's users from etc/minicluster.conf (User=NAME lines), in file order.
    static QStringList usersOfCluster(const QString &clusterDir);

    // Sends a `clock` request: `speed` > 0 sets the rate, `advance` > 0 fast-forwards.
    void setClock(double speed, qint64 advance);
    // Sends `node_update` for `node` with `state` ("drain", "fail", "down", "resume").
    void updateNode(const QString &node, const QString &state, const QString &reason);
    // The clock moved (a `clock` event or reply).
    void showClock(qint64 now, double speed);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void refreshNodeNames();
    void showLoad();
    void loadWorkloadFile();
    void resetCluster();
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
