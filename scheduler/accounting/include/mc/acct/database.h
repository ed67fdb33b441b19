#pragma once
// SQLite, done simply: an owning connection and a prepared statement with typed binds.
// Every failure is reported with SQLite's message; nothing here throws.

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace mc::acct {

class Statement;

class Database {
public:
    Database() = default;
    ~Database();
    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    // Opens (creating) the file, or ":memory:"; WAL journal, synchronous=NORMAL: a commit is
    // durable once the call returns, against a crash of this process.
    bool open(const std::string &path, std::string &error);
    bool exec(std::string_view sql, std::string &error);
    sqlite3 *handle() const { return m_db; }
    // The seam for tests of a full disk: while on, SQLite refuses every statement that writes
    // (its authorizer denies them), as it refuses them when the disk is full; reads go on.
    void refuseWrites(bool on);

private:
    sqlite3 *m_db = nullptr;
};

class Statement {
public:
    Statement(Database &db, std::string_view sql);
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    const std::string &error() const { return m_error; }

    // 1-based parameter indexes, as in SQLite.
    void bind(int index, std::int64_t value);
    void bind(int index, std::string_view value);
    // Steps once: true while a row is available; check error() after false.
    bool next();
    // Steps to completion (INSERT/UPDATE); false on error.
    bool run();
    void reset();

    std::int64_t intColumn(int column) const;
    std::string textColumn(int column) const;

private:
    sqlite3_stmt *m_stmt = nullptr;
    sqlite3 *m_db = nullptr;
    std::string m_error;
};

} // namespace mc::acct
