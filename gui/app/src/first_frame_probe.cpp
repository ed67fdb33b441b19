#include "mc/gui/first_frame_probe.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace mc::gui {

namespace {

qint64 realtimeNs()
{
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<qint64>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

} // namespace

FirstFrameProbe::FirstFrameProbe(QObject *parent)
    : QObject(parent)
{
    QCoreApplication::instance()->installEventFilter(this);
}

FirstFrameProbe::~FirstFrameProbe() = default;

double FirstFrameProbe::processAgeMs()
{
    QFile stat(QStringLiteral("/proc/self/stat"));
    QFile uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly)) {
        return -1;
    }
    const QByteArray text = stat.readAll();
    // After the command's name, which may hold spaces, in parentheses: field 3 onwards.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const double started
        = fields.value(19).toDouble() / static_cast<double>(::sysconf(_SC_CLK_TCK));
    return (uptime.readAll().split(' ').value(0).toDouble() - started) * 1000.0;
}

void FirstFrameProbe::installFromEnvironment()
{
    if (qEnvironmentVariableIsEmpty(kVariable)) {
        return;
    }
    auto *probe = new FirstFrameProbe(QCoreApplication::instance());
    QObject::connect(probe, &FirstFrameProbe::firstFrame, probe, [](qint64 realtime) {
        std::fprintf(stderr,
            "minicluster-gui: first frame at realtime_ns=%lld, %.0f ms after the process "
            "started\n",
            static_cast<long long>(realtime), processAgeMs());
        QCoreApplication::exit(0);
    });
}

bool FirstFrameProbe::eventFilter(QObject *watched, QEvent *event)
{
    if (!m_seen && event->type() == QEvent::Paint) {
        m_seen = true;
        QCoreApplication::instance()->removeEventFilter(this);
        // The rest of this paint pass runs before the event loop takes the timer.
        QTimer::singleShot(0, this, [this] { Q_EMIT firstFrame(realtimeNs()); });
    }
    return QObject::eventFilter(watched, event);
}

} // namespace mc::gui
