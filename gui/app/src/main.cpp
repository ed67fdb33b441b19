// minicluster-gui: the app's window on one cluster. Everything lives in mc_gui_app.

#include "mc/gui/app_options.h"
#include "mc/gui/first_frame_probe.h"
#include "mc/gui/language.h"
#include "mc/gui/main_window.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    mc::gui::setApplicationIdentity();
    mc::gui::installLanguage(mc::gui::savedLanguage());
    const mc::gui::AppOptions options = mc::gui::parseAppOptions(QApplication::arguments());
    mc::gui::FirstFrameProbe::installFromEnvironment(); // bench/app_start.sh
    mc::gui::MainWindow window(options);
    window.show();
    return QApplication::exec();
}
