#include "mc/acct/database.h"

#include <sqlite3.h>

namespace mc::acct {

Database::~Database()
{
    if (m_db) {
        sqlite3_close(m_db);
    }
}

bool Database::open(const std::string &path, std::string &error)
{
    if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK) {
        error = m_db ? sqlite3_errmsg(m_db) : "cannot open database";
        return false;
    }
    sqlite3_busy_timeout(m_db, 5000);
    return exec(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;", error);
}

bool Database::exec(std::string_view sql, std::string &error)
{
    char *message = nullptr;
    std::string text(sql);
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        error = message ? message : "sqlite error";
        sqlite3_free(message);
        return false;
    }
    return true;
}

namespace {

int denyWrites(void *, int action, const char *, const char *, const char *, const char *)
{
    switch (action) {
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
        return SQLITE_DENY;
    default:
        return SQLITE_OK;
    }
}

} // namespace

void Database::refuseWrites(bool on)
{
    sqlite3_set_authorizer(m_db, on ? denyWrites : nullptr, nullptr);
}

Statement::Statement(Database &db, std::string_view sql)
    : m_db(db.handle())
{
    if (sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr)
        != SQLITE_OK) {
        m_error = sqlite3_errmsg(m_db);
        m_stmt = nullptr;
    }
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

void Statement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
}

void Statement::bind(int index, std::string_view value)
{
    sqlite3_bind_text(
        m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

bool Statement::next()
{
    if (!m_stmt) {
        return false;
    }
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc != SQLITE_DONE) {
        m_error = sqlite3_errmsg(m_db);
    }
    return false;
}

bool Statement::run()
{
    if (!m_stmt) {
        return false;
    }
    int rc = sqlite3_step(m_stmt);
    sqlite3_reset(m_stmt);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        m_error = sqlite3_errmsg(m_db);
        return false;
    }
    return true;
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t Statement::intColumn(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

std::string Statement::textColumn(int column) const
{
    auto *text = sqlite3_column_text(m_stmt, column);
    return text ? std::string(reinterpret_cast<const char *>(text)) : std::string();
}

} // namespace mc::acct
