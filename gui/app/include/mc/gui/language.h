#pragma once
// The app's language: English (the source texts) or French (gui/translations/minicluster_fr.ts,
// compiled into the app). The default follows the system locale; a choice made in the
// Language menu is kept in QSettings ("language": "", "en" or "fr") for the next start.
// Slurm's own words (states, reasons, column titles, commands) stay as Slurm prints them.

#include <QString>
#include <QStringList>

namespace mc::gui {

// Language codes the app ships, "en" first.
QStringList availableLanguages();
// The code saved in the settings; empty: follow the system.
QString savedLanguage();
void saveLanguage(const QString &code);
// The language used for `code` (empty: the system locale's if shipped, else "en").
QString effectiveLanguage(const QString &code);
// Installs the translations for `code` (replacing earlier ones); Qt then sends LanguageChange
// to every widget. Returns the language now in use. Needs a QCoreApplication.
QString installLanguage(const QString &code);
// The language installLanguage() last installed ("en" before any).
QString currentLanguage();

} // namespace mc::gui
