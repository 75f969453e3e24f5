// Configuration: read once at start-up from a `key = value` file plus CMS_<KEY> environment
// overrides into an immutable Config. The keys live in one table in config.cpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cms {

struct Config {
    std::string listen;
    int64_t workers = 4;
    int64_t worker_threads = 1;      // threads of a worker, each with its own database connection
    int64_t fcgi_read_timeout = 10;  // seconds a request's bytes may stall before its connection goes
    int64_t fcgi_idle_timeout = 120; // seconds a kept connection may idle before the worker closes it
    int64_t stop_timeout = 10;       // seconds a stopping worker keeps serving kept connections

    std::string db_host;
    int64_t db_port = 3306;
    std::string db_socket;
    std::vector<std::string> db_hosts; // host:port or /socket, tried in order; replaces the three above
    std::string db_user;
    std::string db_password;
    std::string db_name;
    int64_t db_connect_timeout = 2;
    int64_t db_read_timeout = 5;
    int64_t db_write_timeout = 5;
    int64_t db_sync_wait = 1; // wsrep_sync_wait of each session on a Galera node (0: none)

    std::string jwt_secret;
    int64_t access_token_lifetime = 3600;
    int64_t refresh_token_lifetime = 2592000;

    int64_t max_body_bytes = 1048576;
    int64_t json_max_depth = 32;
    std::vector<std::string> cors_allowed_origins; // "*" among them allows any origin
    std::string message_file;
    std::string log_file;
    std::string sql_dir; // migrations/ and seed.sql for --setup-db

    std::string file_store_dir;               // uploads are stored below it
    std::string file_public_url;              // where the web server serves file_store_dir
    int64_t file_single_limit = 2097152;      // bytes per file
    int64_t file_max_count = 10;              // files per request
    int64_t file_total_limit = 10485760;      // body cap of the upload route
    std::vector<std::string> file_extensions; // allowed types by extension, case-insensitively

    int64_t login_max_failures = 10;           // per (username, client address) ...
    int64_t login_failure_window = 300;        // ... within this many seconds; and then
    int64_t login_address_max_failures = 50;   // per client address, for any username,
    int64_t login_username_max_failures = 100; // per username, from addresses that failed for it

    std::string login_captcha = "after_failures"; // off | always | after_failures
    int64_t login_captcha_after = 3;  // failures of an address, or of a username, before a captcha
    int64_t login_captcha_ttl = 300;  // seconds a captcha tag is valid
    int64_t login_ipv6_prefix = 64;   // an IPv6 client counts as its network of this many bits

    int64_t list_max_rows = 1000; // rows of an unpaged book list or search, lowest ids first

    std::string content_file;              // the content declaration --setup-db applies
    int64_t content_max_collections = 100; // collections a declaration may hold
    int64_t content_max_fields = 64;       // fields a collection may hold
    int64_t content_max_conditions = 10;   // filter conditions of one list request
    int64_t content_max_sort = 3;          // sort keys of one list request

    std::string backup_dir;  // where --backup writes its archives
    int64_t backup_keep = 7; // archives --backup keeps there (0: all)
    int64_t slow_request_ms = 1000;        // a request this slow writes a slow line (0: never)
    std::vector<std::string> status_allow; // who /status answers (base/address_list.h)
};

// One database server to connect to: TCP to host:port, or the unix socket when socket is set.
struct DbAddress {
    std::string host;
    int64_t port = 3306;
    std::string socket;
};

// A configuration that cannot be used; what() names the file, line and key.
class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The file of this user to read when neither -c nor $CMS_CONFIG names one: k_home_config below
// the home directory of the process's user in the password database (suexec, which runs a shared
// host's CGI and FastCGI programs, passes no HOME and no CMS_CONFIG). Empty when there is no such
// readable file.
std::string home_config_path();

// Where home_config_path looks, below the home directory.
constexpr const char *k_home_config = ".config/cms-fcgi/cms.conf";

// The directories a relative message_file or sql_dir is looked up in, in order: that of the
// configuration file config_path (none when empty), <the binary's directory>/../share/cms-fcgi
// (make install's and the release tarball's layout) and <the binary's directory>/.. (a built
// checkout: src/cms-fcgi beside conf/ and sql/). The binary's from /proc/self/exe (every
// symlink resolved by the kernel), left out when that cannot be read. Never the working directory.
std::vector<std::string> shipped_dirs(const std::string &config_path);

// A relative message_file or sql_dir becomes the first of dirs/path and dirs/path without a
// leading "conf/" (make install puts conf/code-message.properties in the directory itself) that
// exists, else dirs[0]/path, so that it never names a file of the working directory (where
// another user may have put sql/ for root's --setup-db). An absolute path stays. Throws
// ConfigError for a relative path when dirs is empty.
void resolve_shipped_paths(Config &config, const std::vector<std::string> &dirs);

// Reads path (empty: defaults and environment only) and the CMS_* environment, then resolves the
// shipped files' paths (resolve_shipped_paths of shipped_dirs(path)); throws ConfigError.
Config load_config(const std::string &path);

// Parses config text as if read from a file named origin; env overrides are not applied.
Config parse_config(const std::string &text, const std::string &origin);

// Applies CMS_<KEY> variables from the given environment block (as `environ`) to config.
void apply_env_overrides(Config &config, char **envp);

// Checks rules that span keys or need the whole config (the JWT secret); throws ConfigError.
void check_config(const Config &config);

// The database servers to try, in order: the db_hosts entries, or db_host/db_port/db_socket when
// db_hosts is empty. Throws ConfigError for an entry that is neither host:port nor /socket.
std::vector<DbAddress> db_addresses(const Config &config);

// The names of every key, in table order.
std::vector<std::string> config_keys();

// The effective value of key as text (for `cms-fcgi --get KEY`); throws ConfigError if unknown.
std::string config_value(const Config &config, const std::string &key);

} // namespace cms
