// MariaDB connection, statement cache, row reading and transactions over the C API.
#include "db/db.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>

#include <errmsg.h>
#include <mysqld_error.h>
#include <openssl/crypto.h>

#include "base/config.h"
#include "base/log.h"
#include "db/db_health.h"
#include "metrics/scoreboard.h"

// libmariadb's port for a connect that gives none (ours all give db_port). Only its static
// archive exports it, hence weak: a build against the shared library (sanitizers,
// --enable-static-binary=no) links too, and keeps the look-up that setting it skips.
extern "C" unsigned int mysql_port __attribute__((weak));

namespace cms::db {

namespace {

// Fixed session settings: strict mode so nothing is silently truncated or coerced.
constexpr const char *k_init_command =
    "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
    "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'";

// Whether the server runs Galera replication, and whether this node is ready for clients.
// @@wsrep_on rather than SHOW VARIABLES, which builds and sorts every variable for one (an eighth
// of mariadbd's work for a CGI request); a server built without Galera does not know the name.
constexpr const char *k_select_wsrep_on = "SELECT @@wsrep_on";
constexpr const char *k_show_wsrep_ready = "SHOW STATUS LIKE 'wsrep_ready'";
// START TRANSACTION rather than autocommit off: COMMIT or ROLLBACK then end it, and the
// connection is back in autocommit without a third round trip to restore it.
constexpr std::string_view k_start_transaction = "START TRANSACTION";

// Result buffers are sized from the column's declared length once per prepare, capped here;
// longer values are fetched again into a grown buffer (MYSQL_DATA_TRUNCATED).
constexpr unsigned long k_max_initial_buffer = 16384;

// A loss faster than this is a stale connection (see stale_failure).
constexpr auto k_stale_failure = std::chrono::milliseconds(1000);

} // namespace

bool stale_failure(std::chrono::steady_clock::duration took) { return took < k_stale_failure; }

namespace {

// Column column of the first row of query (a SHOW ... LIKE has the value in column 1); empty
// when there is no row or the query failed.
std::string first_value(MYSQL *mysql, const char *query, unsigned column) {
    if (mysql_query(mysql, query) != 0)
        return {};
    MYSQL_RES *result = mysql_store_result(mysql);
    if (result == nullptr)
        return {};
    MYSQL_ROW row = mysql_fetch_row(result);
    std::string value = row != nullptr && row[column] != nullptr ? row[column] : "";
    mysql_free_result(result);
    return value;
}

// Whether the server mysql is connected to may serve requests: a Galera node that is not part of
// the primary component (joining, or cut off) answers every query with ER_UNKNOWN_COM_ERROR, so
// it counts as down. On a Galera node, also sets the session's causality wait (db_sync_wait), so
// a read sees every write the cluster committed before it began.
bool node_ready(MYSQL *mysql, const Config &config) {
    if (first_value(mysql, k_select_wsrep_on, 0) != "1")
        return mysql_errno(mysql) == 0 || mysql_errno(mysql) == ER_UNKNOWN_SYSTEM_VARIABLE;
    if (first_value(mysql, k_show_wsrep_ready, 1) != "ON")
        return false;
    if (config.db_sync_wait == 0)
        return true;
    std::string sync = "SET SESSION wsrep_sync_wait = " + std::to_string(config.db_sync_wait);
    return mysql_query(mysql, sync.c_str()) == 0;
}

} // namespace

Connected connect_configured(const Config &config) {
    Connected out;
    unsigned connect_timeout = static_cast<unsigned>(config.db_connect_timeout);
    unsigned read_timeout = static_cast<unsigned>(config.db_read_timeout);
    unsigned write_timeout = static_cast<unsigned>(config.db_write_timeout);
    my_bool off = 0, on = 1;
    // The first address that answers and is ready wins.
    for (const DbAddress &address : db_addresses(config)) {
        MYSQL *mysql = mysql_init(nullptr);
        if (mysql == nullptr) {
            out.error = "cannot allocate a MariaDB connection";
            out.errnum = CR_OUT_OF_MEMORY;
            return out;
        }
        mysql_optionsv(mysql, MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
        mysql_optionsv(mysql, MYSQL_OPT_READ_TIMEOUT, &read_timeout);
        mysql_optionsv(mysql, MYSQL_OPT_WRITE_TIMEOUT, &write_timeout);
        mysql_optionsv(mysql, MYSQL_OPT_RECONNECT, &off);
        mysql_optionsv(mysql, MYSQL_REPORT_DATA_TRUNCATION, &on);
        mysql_optionsv(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
        mysql_optionsv(mysql, MYSQL_INIT_COMMAND, k_init_command);
#ifdef CMS_STATIC_BINARY
        // The client plugins on a host are made for a shared libmariadb and another C library: a
        // static binary never loads one (the error below says what to do instead).
        mysql_optionsv(mysql, MYSQL_PLUGIN_DIR, "/nonexistent/cms-fcgi-static");
#endif
        const char *socket = address.socket.empty() ? nullptr : address.socket.c_str();
        out.address = socket != nullptr ? address.socket
                                        : address.host + ":" + std::to_string(address.port);
        if (mysql_real_connect(mysql, address.host.c_str(), config.db_user.c_str(),
                               config.db_password.c_str(), config.db_name.c_str(),
                               static_cast<unsigned>(address.port), socket,
                               CLIENT_FOUND_ROWS) != nullptr &&
            node_ready(mysql, config)) {
            // libmariadb opens its socket without close-on-exec; no connection may cross an exec.
            fcntl(static_cast<int>(mysql_get_socket(mysql)), F_SETFD, FD_CLOEXEC);
            out.mysql = mysql;
            return out;
        }
        out.errnum = mysql_errno(mysql);
        out.error = out.errnum != 0 ? mysql_error(mysql) : "a Galera node not ready for clients";
        if (out.errnum == 0)
            out.errnum = ER_UNKNOWN_COM_ERROR;
#ifdef CMS_STATIC_BINARY
        if (out.errnum == CR_AUTH_PLUGIN_CANNOT_LOAD)
            out.error += " (a static cms-fcgi has mysql_native_password built in, and no other "
                         "client plugin: give the account mysql_native_password; see "
                         "doc/deploy-apache-shared-hosting.md)";
#endif
        mysql_close(mysql);
    }
    return out;
}

std::string like_literal(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '%' || c == '_' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

bool is_connection_error(unsigned errnum) {
    switch (errnum) {
    case CR_CONNECTION_ERROR:
    case CR_CONN_HOST_ERROR:
    case CR_SERVER_GONE_ERROR:
    case CR_SERVER_LOST:
    case CR_SERVER_LOST_EXTENDED:
    case CR_SERVER_HANDSHAKE_ERR:
    case CR_IPSOCK_ERROR:
    case CR_UNKNOWN_HOST:
    case ER_CONNECTION_KILLED:
    case ER_SERVER_SHUTDOWN:
    case ER_CON_COUNT_ERROR:
    case ER_ACCESS_DENIED_ERROR:
    case ER_BAD_DB_ERROR:
    case ER_QUERY_INTERRUPTED:
    // The server no longer knows a statement we cached (e.g. a proxy in between reconnected):
    // starting over on a new connection prepares it again.
    case ER_UNKNOWN_STMT_HANDLER:
    // A Galera node that left the primary component ("WSREP has not yet prepared node for
    // application use"): down for us; the next connect tries the other nodes.
    case ER_UNKNOWN_COM_ERROR:
        return true;
    default:
        return false;
    }
}

Statement::Statement(Connection &conn, MYSQL *mysql, const char *sql, bool one_shot)
    : conn_(conn), mysql_(mysql), stmt_(mysql_stmt_init(mysql)), sql_(sql), one_shot_(one_shot) {
    if (stmt_ == nullptr)
        conn_.fail("cannot allocate a statement");
    if (one_shot_)
        return; // prepared by its execution
    int prepared;
    {
        Connection::Wait wait(conn_, sql, false);
        prepared = mysql_stmt_prepare(stmt_, sql, std::strlen(sql));
    }
    if (prepared != 0) {
        // The destructor does not run for a constructor that throws: close the handle here.
        std::string text = std::string("cannot prepare statement '") + sql +
                           "': " + mysql_stmt_error(stmt_);
        unsigned errnum = mysql_stmt_errno(stmt_);
        mysql_stmt_close(stmt_);
        stmt_ = nullptr;
        bool lost = is_connection_error(errnum);
        if (lost)
            conn_.drop();
        throw DbError(text, errnum, lost);
    }
    params_.resize(mysql_stmt_param_count(stmt_));
    size_results();
}

void Statement::size_results() {
    MYSQL_RES *meta = mysql_stmt_result_metadata(stmt_);
    unsigned count = meta != nullptr ? mysql_num_fields(meta) : 0;
    results_.resize(count);
    buffers_.resize(count);
    lengths_.resize(count);
    nulls_.resize(count);
    errors_.resize(count);
    if (meta == nullptr)
        return;
    MYSQL_FIELD *fields = mysql_fetch_fields(meta);
    for (unsigned i = 0; i < count; ++i) {
        unsigned long size = fields[i].length < 64 ? 64 : fields[i].length;
        buffers_[i].resize((size > k_max_initial_buffer ? k_max_initial_buffer : size) + 1);
    }
    mysql_free_result(meta);
    bind_results();
}

Statement::~Statement() {
    if (stmt_ != nullptr)
        mysql_stmt_close(stmt_);
}

void Statement::bind_results() {
    for (size_t i = 0; i < results_.size(); ++i) {
        MYSQL_BIND &b = results_[i];
        std::memset(&b, 0, sizeof b);
        b.buffer_type = MYSQL_TYPE_STRING;
        b.buffer = buffers_[i].data();
        b.buffer_length = buffers_[i].size();
        b.length = &lengths_[i];
        b.is_null = &nulls_[i];
        b.error = &errors_[i];
    }
}

void Statement::fail(const char *what) {
    std::string text = std::string(what) + " '" + sql_ + "': " + mysql_stmt_error(stmt_);
    unsigned errnum = mysql_stmt_errno(stmt_);
    bool lost = is_connection_error(errnum);
    if (lost)
        conn_.drop(); // deletes this statement: touch no member after this line
    throw DbError(text, errnum, lost);
}

Statement &Statement::execute(std::initializer_list<Param> params) {
    return execute(std::vector<Param>(params));
}

Statement &Statement::execute(const std::vector<Param> &params) {
    if (one_shot_ && executed_) {
        // A handle of mariadb_stmt_execute_direct serves one execution: the next takes a new one.
        mysql_stmt_close(stmt_);
        stmt_ = nullptr;
        has_result_ = false;
        executed_ = false;
    }
    // Without a handle when the last allocation failed (out of memory, the connection kept): the
    // statement stays cached and tries again, never closing or using a null handle.
    if (stmt_ == nullptr && (stmt_ = mysql_stmt_init(mysql_)) == nullptr)
        conn_.fail("cannot allocate a statement");
    if (one_shot_)
        params_.resize(params.size());
    else if (params.size() != params_.size())
        throw std::logic_error(std::string("wrong parameter count for '") + sql_ + "'");
    if (has_result_) {
        mysql_stmt_free_result(stmt_);
        has_result_ = false;
    }
    for (size_t i = 0; i < params.size(); ++i) {
        MYSQL_BIND &b = params_[i];
        std::memset(&b, 0, sizeof b);
        const Param &p = params[i];
        switch (p.kind) {
        case Param::Kind::null:
            b.buffer_type = MYSQL_TYPE_NULL;
            break;
        case Param::Kind::integer:
            b.buffer_type = MYSQL_TYPE_LONGLONG;
            b.buffer = const_cast<int64_t *>(&p.integer);
            break;
        case Param::Kind::text:
            b.buffer_type = MYSQL_TYPE_STRING;
            b.buffer = const_cast<char *>(p.text.data());
            b.buffer_length = p.text.size();
            break;
        }
    }
    unsigned int count = static_cast<unsigned int>(params_.size());
    if (one_shot_ && count != 0 &&
        mysql_stmt_attr_set(stmt_, STMT_ATTR_PREBIND_PARAMS, &count) != 0)
        fail("cannot declare the parameters of");
    if (!params_.empty() && mysql_stmt_bind_param(stmt_, params_.data()) != 0)
        fail("cannot bind parameters of");
    // A statement without a result set may change data: the request can no longer be retried.
    // Unprepared, only the text tells: every statement of this program that reads is a SELECT.
    if (one_shot_ ? std::strncmp(sql_, "SELECT", 6) != 0 : results_.empty())
        conn_.mark_written();
    executed_ = true;
    // Until the result is read, an error's throw included: the Connection outlives a drop().
    Connection::Wait wait(conn_, sql_, true);
    if ((one_shot_ ? mariadb_stmt_execute_direct(stmt_, sql_, std::strlen(sql_))
                   : mysql_stmt_execute(stmt_)) != 0)
        fail("cannot execute");
    if (one_shot_)
        size_results();
    if (results_.empty())
        conn_.wrote_statement();
    if (!results_.empty()) {
        if (mysql_stmt_bind_result(stmt_, results_.data()) != 0)
            fail("cannot bind results of");
        if (mysql_stmt_store_result(stmt_) != 0)
            fail("cannot read results of");
        has_result_ = true;
    }
    return *this;
}

bool Statement::next() {
    if (!has_result_)
        return false;
    int rc = mysql_stmt_fetch(stmt_);
    if (rc == MYSQL_NO_DATA)
        return false;
    if (rc == MYSQL_DATA_TRUNCATED) {
        for (size_t i = 0; i < results_.size(); ++i) {
            if (!errors_[i])
                continue;
            buffers_[i].resize(lengths_[i] + 1);
            results_[i].buffer = buffers_[i].data();
            results_[i].buffer_length = buffers_[i].size();
            if (mysql_stmt_fetch_column(stmt_, &results_[i], static_cast<unsigned>(i), 0) != 0)
                fail("cannot fetch a long column of");
        }
        if (mysql_stmt_bind_result(stmt_, results_.data()) != 0)
            fail("cannot bind results of");
        return true;
    }
    if (rc != 0)
        fail("cannot fetch a row of");
    return true;
}

bool Statement::is_null(size_t column) const { return nulls_.at(column) != 0; }

std::string Statement::text(size_t column) const {
    if (is_null(column))
        return {};
    return std::string(buffers_[column].data(), lengths_[column]);
}

std::optional<std::string> Statement::optional_text(size_t column) const {
    if (is_null(column))
        return std::nullopt;
    return text(column);
}

int64_t Statement::integer(size_t column) const {
    if (is_null(column))
        return 0;
    return std::strtoll(text(column).c_str(), nullptr, 10);
}

uint64_t Statement::affected_rows() const { return mysql_stmt_affected_rows(stmt_); }

uint64_t Statement::insert_id() const { return mysql_stmt_insert_id(stmt_); }

Connection::Connection(const Config &config, DbHealth *health)
    : config_(config), health_(health) {}

Connection::Wait::Wait(Connection &conn, const char *sql, bool statement)
    : conn_(conn), sql_(sql), started_(std::chrono::steady_clock::now()) {
    ++conn_.stats_.round_trips;
    if (statement)
        ++conn_.stats_.statements;
    if (conn_.state_cell_ != nullptr)
        conn_.state_cell_->store(static_cast<uint8_t>(ThreadState::database),
                                 std::memory_order_relaxed);
}

Connection::Wait::~Wait() {
    auto took = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - started_)
                    .count();
    RequestStats &stats = conn_.stats_;
    stats.wait_us += took;
    if (stats.slowest_sql == nullptr || took > stats.slowest_us) {
        stats.slowest_sql = sql_;
        stats.slowest_us = took;
    }
    if (conn_.state_cell_ != nullptr)
        conn_.state_cell_->store(static_cast<uint8_t>(ThreadState::handler),
                                 std::memory_order_relaxed);
}

Connection::~Connection() { drop(); }

void Connection::drop() noexcept {
    in_transaction_ = false;
    // The connection first: closing it detaches its statements, which then close without a
    // COM_STMT_CLOSE each (the server frees them with the connection).
    if (mysql_ != nullptr) {
        mysql_close(mysql_);
        mysql_ = nullptr;
    }
    statements_.clear();
    shaped_.clear();
}

void Connection::fail(const char *what) {
    unsigned errnum = mysql_ != nullptr ? mysql_errno(mysql_) : CR_CONNECTION_ERROR;
    std::string text = std::string(what) + ": " +
                       (mysql_ != nullptr ? mysql_error(mysql_) : "not connected");
    bool lost = is_connection_error(errnum);
    if (lost)
        drop();
    throw DbError(text, errnum, lost);
}

void Connection::mark_down() {
    drop();
    if (health_ != nullptr)
        health_->mark_down();
}

bool Connection::known_down() { return health_ != nullptr && health_->down(); }

void Connection::ensure_connected() {
    // Checked on every statement: once any worker of the pool found the server down, the rest of
    // the request and every request after it fail at once, until the probe reaches it again.
    if (health_ != nullptr && health_->down()) {
        drop();
        throw DbError("database is unreachable (probing in the background)", CR_CONNECTION_ERROR,
                      true);
    }
    if (mysql_ != nullptr)
        return;
    Connected connected;
    {
        Wait wait(*this, "(connect)", false);
        connected = connect_configured(config_);
    }
    if (connected.mysql == nullptr) {
        ++stats_.connect_failures;
        std::string text = "cannot connect to database '" + config_.db_name + "' at " +
                           connected.address + ": " + connected.error;
        mark_down();
        throw DbError(text, connected.errnum, true);
    }
    mysql_ = connected.mysql;
    ++stats_.connects;
    if (ever_connected_)
        ++stats_.reconnects;
    ever_connected_ = true;
    log_info("connected to database '" + config_.db_name + "' at " + connected.address);
    if (!on_connect_)
        return;
    try {
        on_connect_(*this);
    } catch (const DbError &) {
        // Half set up is not connected: drop it, so that the next request runs the hook again.
        drop();
        throw;
    }
}

bool Connection::ping() {
    // Twice: after a server restart the first ping only finds out that the old connection is
    // gone. Not after a timeout: that server is down, and the second try would wait again.
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            ensure_connected();
        } catch (const DbError &) {
            return false;
        }
        auto start = std::chrono::steady_clock::now();
        int pinged;
        {
            Wait wait(*this, "(ping)", false);
            pinged = mysql_ping(mysql_);
        }
        if (pinged == 0)
            return true;
        if (!stale_failure(std::chrono::steady_clock::now() - start)) {
            mark_down();
            return false;
        }
        drop();
    }
    return false;
}

void Connection::run_script(const std::string &sql) {
    ensure_connected();
    mark_written();
    if (mysql_set_server_option(mysql_, MYSQL_OPTION_MULTI_STATEMENTS_ON) != 0)
        fail("cannot allow several statements");
    // Every result must be read before the next statement's error is seen.
    int rc = mysql_real_query(mysql_, sql.data(), sql.size());
    while (rc == 0) {
        if (MYSQL_RES *result = mysql_store_result(mysql_))
            mysql_free_result(result);
        rc = mysql_next_result(mysql_);
    }
    if (rc > 0)
        fail("cannot run the script");
    if (mysql_set_server_option(mysql_, MYSQL_OPTION_MULTI_STATEMENTS_OFF) != 0)
        fail("cannot forbid several statements again");
}

Statement &Connection::statement(const char *sql) {
    ensure_connected();
    auto it = statements_.find(sql);
    if (it != statements_.end())
        return *it->second;
    auto stmt = std::make_unique<Statement>(*this, mysql_, sql, one_shot_);
    return *statements_.emplace(sql, std::move(stmt)).first->second;
}

Statement &Connection::shaped(const std::string &sql) {
    ensure_connected();
    auto it = shaped_.find(sql);
    if (it == shaped_.end()) {
        if (shaped_.size() >= k_max_shaped)
            shaped_.erase(std::min_element(shaped_.begin(), shaped_.end(),
                                           [](const auto &a, const auto &b) {
                                               return a.second.used < b.second.used;
                                           }));
        it = shaped_.emplace(sql, Shaped{}).first;
        try {
            it->second.stmt = std::make_unique<Statement>(*this, mysql_, it->first.c_str(), one_shot_);
        } catch (const DbError &) {
            shaped_.erase(sql); // not kept (a lost connection has cleared them all already)
            throw;
        }
    }
    it->second.used = ++shaped_uses_;
    return *it->second.stmt;
}

void Connection::begin() {
    ensure_connected();
    // A stale connection fails here, before anything was written: the request may run again.
    int started;
    {
        Wait wait(*this, k_start_transaction.data(), false);
        started = mysql_real_query(mysql_, k_start_transaction.data(), k_start_transaction.size());
    }
    if (started != 0)
        fail("cannot start a transaction");
    mark_written();
    in_transaction_ = true;
    undo_.clear();
}

void Connection::commit() {
    int refused;
    {
        Wait wait(*this, "COMMIT", false);
        refused = mysql_commit(mysql_);
    }
    if (refused != 0) {
        // Lost on the way, the server may have committed: the change's files stay, since an
        // orphan file is harmless and a committed row without its file is not. A refused commit
        // (a deadlock, a certification failure) certainly rolled back, and undoes them.
        if (is_connection_error(mysql_errno(mysql_)))
            undo_.clear();
        fail("cannot commit");
    }
    committed_ = true;
    in_transaction_ = false;
    undo_.clear();
}

void Connection::rollback() noexcept {
    in_transaction_ = false;
    for (auto undo = undo_.rbegin(); undo != undo_.rend(); ++undo)
        (*undo)();
    undo_.clear();
    if (mysql_ == nullptr)
        return;
    int refused;
    {
        Wait wait(*this, "ROLLBACK", false);
        refused = mysql_rollback(mysql_);
    }
    if (refused != 0) {
        log_error(std::string("cannot roll back: ") + mysql_error(mysql_));
        drop(); // a connection in an unknown transaction state is not reused
    }
}

ClientLibrary::ClientLibrary() {
    if (OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
                                OPENSSL_INIT_NO_ADD_ALL_DIGESTS |
                                OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS | OPENSSL_INIT_NO_ATEXIT,
                            nullptr) != 1)
        return;
    if (&mysql_port != nullptr)
        mysql_port = 3306;
    ok_ = mysql_library_init(0, nullptr, nullptr) == 0;
}

ClientLibrary::~ClientLibrary() {
    if (ok_)
        mysql_library_end();
}

void ClientLibrary::require() const {
    if (!ok_)
        throw std::runtime_error("cannot initialise the MariaDB client library");
}

} // namespace cms::db
