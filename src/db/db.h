// MariaDB access: one connection per worker, prepared statements prepared once per connection and
// reused, explicit reconnect after a lost connection (never MYSQL_OPT_RECONNECT), transactions.
// No SQL text lives here except what the C API needs; stores own their statements.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <mysql.h>

namespace cms {
struct Config;
class DbHealth;
}

namespace cms::db {

// A failed mysql_* call. lost() means the server is unreachable: the request gets 503.
class DbError : public std::runtime_error {
  public:
    DbError(const std::string &what, unsigned error_number, bool lost)
        : std::runtime_error(what), errnum(error_number), lost_(lost) {}
    bool lost() const { return lost_; }
    unsigned errnum;

  private:
    bool lost_;
};

// One bound parameter: NULL, an integer or text (the text must outlive execute()).
struct Param {
    enum class Kind { null, integer, text } kind;
    int64_t integer = 0;
    std::string_view text;

    Param(std::nullptr_t) : kind(Kind::null) {}
    Param(int64_t v) : kind(Kind::integer), integer(v) {}
    Param(int v) : kind(Kind::integer), integer(v) {}
    Param(std::string_view v) : kind(Kind::text), text(v) {}
    Param(const std::string &v) : kind(Kind::text), text(v) {}
    Param(const char *v) : kind(Kind::text), text(v) {}
    // An optional text: NULL when absent.
    Param(const std::optional<std::string> &v)
        : kind(v ? Kind::text : Kind::null), text(v ? std::string_view(*v) : std::string_view()) {}
};

class Connection;

// What the current request asked of the server, for the pool's figures and the slow-request log:
// round trips (statements, prepares, transaction control), the time spent waiting on them, the
// slowest one's SQL text (a constant with ? for each value, never a value) and connects.
struct RequestStats {
    uint32_t round_trips = 0;
    uint32_t statements = 0;
    int64_t wait_us = 0;
    const char *slowest_sql = nullptr;
    int64_t slowest_us = 0;
    uint32_t connects = 0;
    uint32_t reconnects = 0;
    uint32_t connect_failures = 0;
};

// A prepared statement owned by a Connection's cache. Results are read row by row after execute().
class Statement {
  public:
    // one_shot: not prepared until its first execute, which prepares and executes in one round
    // trip (see Connection::one_shot).
    Statement(Connection &conn, MYSQL *mysql, const char *sql, bool one_shot);
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    // Binds params and executes; for a SELECT the whole result is fetched to the client.
    Statement &execute(std::initializer_list<Param> params);
    Statement &execute(const std::vector<Param> &params);
    // Advances to the next row; false when there is none.
    bool next();
    bool is_null(size_t column) const;
    // Column text of the current row (empty for NULL).
    std::string text(size_t column) const;
    // NULL becomes nullopt.
    std::optional<std::string> optional_text(size_t column) const;
    int64_t integer(size_t column) const;
    // The first column of the next row as an integer, 0 when there is none (a COUNT(*)).
    int64_t scalar() { return next() ? integer(0) : 0; }
    uint64_t affected_rows() const;
    uint64_t insert_id() const;

  private:
    [[noreturn]] void fail(const char *what);
    void bind_results();
    // Result buffers from the prepared statement's metadata.
    void size_results();

    Connection &conn_;
    MYSQL *mysql_;
    MYSQL_STMT *stmt_;
    const char *sql_;
    bool one_shot_;
    bool executed_ = false;
    std::vector<MYSQL_BIND> params_;
    std::vector<MYSQL_BIND> results_;
    std::vector<std::vector<char>> buffers_;
    std::vector<unsigned long> lengths_;
    std::vector<my_bool> nulls_;
    std::vector<my_bool> errors_;
    bool has_result_ = false;
};

// The worker's connection. Statements are prepared on first use and kept until the connection
// is lost; the next request reconnects and prepares them again. With a DbHealth, a database
// known to be down fails at once, and a failed connect marks it down.
class Connection {
  public:
    explicit Connection(const Config &config, DbHealth *health = nullptr);
    ~Connection();
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    // Connects if not connected; throws DbError (lost) when the server cannot be reached or is
    // known to be down.
    void ensure_connected();
    bool connected() const { return mysql_ != nullptr; }
    // True when the server answers now (reconnecting if needed); never throws.
    bool ping();
    // The statement for sql (a string constant: its address is the cache key).
    Statement &statement(const char *sql);
    // The statement for sql made at run time (a declared collection's), cached by its text: at
    // most k_max_shaped of them, the least recently used closed to make room.
    Statement &shaped(const std::string &sql);
    static constexpr size_t k_max_shaped = 256;
    // Runs after every successful (re)connect, e.g. to register permissions.
    void on_connect(std::function<void(Connection &)> hook) { on_connect_ = std::move(hook); }
    // For a connection that serves one request (CGI): each statement is prepared and executed in
    // one round trip (mariadb_stmt_execute_direct) instead of two, and prepared again for each
    // execution. Set before the first statement.
    void one_shot() { one_shot_ = true; }

    // Runs a script of several statements (an SQL file of sql/) as the server reads it; stops at
    // the first failing statement and throws DbError. Not for requests: no parameters, no cache.
    void run_script(const std::string &sql);

    // Whether anything may have been written during the current request (no safe retry then).
    bool wrote() const { return wrote_; }
    void mark_written() { wrote_ = true; }
    // Whether a write of the current request was committed, in a transaction or by autocommit
    // (running the request again would repeat it).
    bool committed() const { return committed_; }
    // Called by a statement that changed data: outside a transaction, that was a commit.
    void wrote_statement() {
        if (!in_transaction_)
            committed_ = true;
    }
    void begin_request() { wrote_ = committed_ = false; }
    // Records that the server was found unreachable (a timeout, or a failure after a retry).
    void mark_down();
    // Whether the pool knows the server to be down (a retry now would fail the same way).
    bool known_down();

    void begin();
    void commit();
    void rollback() noexcept;
    // Runs undo if the current transaction rolls back (or its connection is lost); forgotten when
    // it commits. For what a transaction does outside the database, e.g. a file written for a row.
    void on_rollback(std::function<void()> undo) { undo_.push_back(std::move(undo)); }

    // The figures of the requests since the last reset_stats().
    const RequestStats &stats() const { return stats_; }
    void reset_stats() { stats_ = RequestStats(); }
    // A cell that is set to ThreadState::database while a round trip waits, and back to
    // ThreadState::handler after it (the worker thread's scoreboard slot); nullptr for none.
    void state_cell(std::atomic<uint8_t> *cell) { state_cell_ = cell; }

    // Times one round trip to the server for stats(); statement: an execution (not a prepare,
    // a connect or transaction control).
    class Wait {
      public:
        Wait(Connection &conn, const char *sql, bool statement);
        ~Wait();
        Wait(const Wait &) = delete;
        Wait &operator=(const Wait &) = delete;

      private:
        Connection &conn_;
        const char *sql_;
        std::chrono::steady_clock::time_point started_;
    };

    // Drops the connection and every statement; used when the server is gone.
    void drop() noexcept;
    // Throws DbError for the connection's last error (lost() when the server is gone).
    [[noreturn]] void fail(const char *what);

  private:
    const Config &config_;
    MYSQL *mysql_ = nullptr;
    std::unordered_map<const char *, std::unique_ptr<Statement>> statements_;
    // By text; a Statement keeps a pointer to its key, which a node of the map never moves.
    struct Shaped {
        std::unique_ptr<Statement> stmt;
        uint64_t used = 0;
    };
    std::unordered_map<std::string, Shaped> shaped_;
    uint64_t shaped_uses_ = 0;
    DbHealth *health_;
    std::function<void(Connection &)> on_connect_;
    std::vector<std::function<void()>> undo_; // of the open transaction
    bool wrote_ = false;
    bool committed_ = false;
    bool in_transaction_ = false;
    bool one_shot_ = false;
    bool ever_connected_ = false;
    RequestStats stats_;
    std::atomic<uint8_t> *state_cell_ = nullptr;
};

// Rolls back unless commit() was called: every early return and every throw is covered.
class Transaction {
  public:
    explicit Transaction(Connection &conn) : conn_(conn) { conn_.begin(); }
    ~Transaction() {
        if (!done_)
            conn_.rollback();
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit() {
        conn_.commit();
        done_ = true;
    }

  private:
    Connection &conn_;
    bool done_ = false;
};

// A database whose schema is not the version this binary needs: unusable until an operator
// upgrades it, so requests get 503, as for a database that is down.
class WrongSchema : public DbError {
  public:
    explicit WrongSchema(const std::string &what) : DbError(what, 0, false) {}
};

// text for a LIKE pattern that matches it literally: %, _ and the escape character \ are escaped
// (the statement must say ESCAPE '\\').
std::string like_literal(std::string_view text);

// A new connection, or why there is none.
struct Connected {
    MYSQL *mysql = nullptr; // the caller's to mysql_close
    std::string address;    // host:port or socket of the server connected to (or last tried)
    std::string error;
    unsigned errnum = 0;
};

// Connects to the first of the configured servers (db_addresses) that answers and is ready for
// clients, with the options of every connection of ours (timeouts, no automatic reconnect,
// utf8mb4, strict mode, wsrep_sync_wait on a Galera node).
Connected connect_configured(const Config &config);

// Whether errnum means the server is unreachable (as opposed to a bad statement).
bool is_connection_error(unsigned errnum);

// Whether a connection lost after `took` was a stale one (the server restarted, something in
// between closed it), worth one retry on a new connection. A slower loss is a timeout: the server
// is down or frozen, and a retry would only double the wait.
bool stale_failure(std::chrono::steady_clock::duration took);

// The MariaDB client library, started for the life of the guard and ended after it (each mode of
// the program holds one around its connections). Started without what this program never uses:
// libmariadb's TLS start-up would read openssl.cnf and register every legacy cipher, digest and
// error string by name (the database is reached without TLS; the app fetches HMAC and names its
// digests directly), and without libmariadb's mysql_port it would look the "mysql" service up
// through NSS in /etc/services. A tenth of a CGI request's start. Without openssl.cnf the app's
// own HMAC, SHA-256 and random numbers also run without a system-wide OpenSSL policy (FIPS
// provider, security level): they use OpenSSL's defaults. OpenSSL itself is never cleaned up:
// the exit frees what it holds anyway.
class ClientLibrary {
  public:
    ClientLibrary();
    ~ClientLibrary();
    ClientLibrary(const ClientLibrary &) = delete;
    ClientLibrary &operator=(const ClientLibrary &) = delete;

    // False when OpenSSL or the client library could not start.
    bool ok() const { return ok_; }
    // Throws std::runtime_error when it could not.
    void require() const;

  private:
    bool ok_ = false;
};

} // namespace cms::db
