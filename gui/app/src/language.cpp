#include "mc/gui/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace mc::gui {

namespace {

constexpr auto kSettingsKey = "language";

// The app's and Qt's own (standard dialogs, context menus) translators.
QTranslator &appTranslator()
{
    static QTranslator translator;
    return translator;
}

QTranslator &qtTranslator()
{
    static QTranslator translator;
    return translator;
}

QString &installedLanguage()
{
    static QString language = QStringLiteral("en");
    return language;
}

} // namespace

QStringList availableLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("fr")};
}

QString savedLanguage()
{
    return QSettings().value(QLatin1String(kSettingsKey)).toString();
}

void saveLanguage(const QString &code)
{
    QSettings().setValue(QLatin1String(kSettingsKey), code);
}

QString effectiveLanguage(const QString &code)
{
    if (availableLanguages().contains(code)) {
        return code;
    }
    for (const QString &name : QLocale::system().uiLanguages()) {
        const QString language = name.section(QLatin1Char('-'), 0, 0);
        if (availableLanguages().contains(language)) {
            return language;
        }
    }
    return QStringLiteral("en");
}

QString installLanguage(const QString &code)
{
    const QString language = effectiveLanguage(code);
    installedLanguage() = language;
    QCoreApplication::removeTranslator(&appTranslator());
    QCoreApplication::removeTranslator(&qtTranslator());
    if (language != QLatin1String("en")) {
        if (appTranslator().load(QStringLiteral(":/i18n/minicluster_%1.qm").arg(language))) {
            QCoreApplication::installTranslator(&appTranslator());
        }
        if (qtTranslator().load(QStringLiteral("qtbase_%1").arg(language),
                QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(&qtTranslator());
        }
    }
    return language;
}

QString currentLanguage()
{
    return installedLanguage();
}

} // namespace mc::gui
