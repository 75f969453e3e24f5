// Configuration loading: the key table (name, type, default, bounds), the file parser,
// environment overrides and the start-up checks. Nothing here is read again per request.
#include "base/config.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <pwd.h>
#include <unistd.h>

#include "base/address_list.h"
#include "base/text.h"

extern char **environ;

namespace cms {

namespace {

enum class KeyType { text, integer, list };

struct Key {
    const char *name;
    KeyType type;
    const char *default_value;
    int64_t min;
    int64_t max;
    std::string Config::*text;
    int64_t Config::*integer;
    std::vector<std::string> Config::*list;
};

#define CMS_TEXT(name, def) {#name, KeyType::text, def, 0, 0, &Config::name, nullptr, nullptr}
#define CMS_INT(name, def, lo, hi)                                                                 \
    {#name, KeyType::integer, #def, lo, hi, nullptr, &Config::name, nullptr}
#define CMS_LIST(name, def) {#name, KeyType::list, def, 0, 0, nullptr, nullptr, &Config::name}

// Every key the service reads; conf/cms.conf.example documents each one.
const Key k_keys[] = {
    CMS_TEXT(listen, ""),
    CMS_INT(workers, 4, 1, 256),
    CMS_INT(worker_threads, 1, 1, 64),
    CMS_INT(fcgi_read_timeout, 10, 1, 300),
    CMS_INT(fcgi_idle_timeout, 120, 1, 3600),
    CMS_INT(stop_timeout, 10, 1, 300),
    CMS_TEXT(db_host, "localhost"),
    CMS_INT(db_port, 3306, 1, 65535),
    CMS_TEXT(db_socket, ""),
    CMS_LIST(db_hosts, ""),
    CMS_TEXT(db_user, "cms"),
    CMS_TEXT(db_password, ""),
    CMS_TEXT(db_name, "cms"),
    CMS_INT(db_connect_timeout, 2, 1, 60),
    CMS_INT(db_read_timeout, 5, 1, 300),
    CMS_INT(db_write_timeout, 5, 1, 300),
    CMS_INT(db_sync_wait, 1, 0, 15),
    CMS_TEXT(jwt_secret, ""),
    CMS_INT(access_token_lifetime, 3600, 60, 2592000),
    CMS_INT(refresh_token_lifetime, 2592000, 60, 31536000),
    CMS_INT(max_body_bytes, 1048576, 1024, 67108864),
    CMS_INT(json_max_depth, 32, 2, 1000),
    CMS_LIST(cors_allowed_origins, "*"),
    CMS_TEXT(message_file, "conf/code-message.properties"),
    CMS_TEXT(log_file, ""),
    CMS_TEXT(sql_dir, "sql"),
    CMS_TEXT(file_store_dir, "var/assets"),
    CMS_TEXT(file_public_url, "http://127.0.0.1:8080/assets/"),
    CMS_INT(file_single_limit, 2097152, 1, 67108864),
    CMS_INT(file_max_count, 10, 1, 100),
    CMS_INT(file_total_limit, 10485760, 1024, 67108864),
    CMS_LIST(file_extensions, ".jpg .jpeg .png .gif"),
    CMS_INT(login_max_failures, 10, 1, 100000),
    CMS_INT(login_failure_window, 300, 1, 86400),
    CMS_INT(login_address_max_failures, 50, 1, 100000),
    CMS_INT(login_username_max_failures, 100, 1, 100000),
    CMS_TEXT(login_captcha, "after_failures"),
    CMS_INT(login_captcha_after, 3, 1, 100000),
    CMS_INT(login_captcha_ttl, 300, 1, 86400),
    CMS_INT(login_ipv6_prefix, 64, 16, 128),
    CMS_INT(list_max_rows, 1000, 1, 100000),
    CMS_TEXT(content_file, "conf/content.json"),
    CMS_INT(content_max_collections, 100, 1, 1000),
    CMS_INT(content_max_fields, 64, 1, 500),
    CMS_INT(content_max_conditions, 10, 1, 100),
    CMS_INT(content_max_sort, 3, 1, 10),
    // --backup (backup.cpp)
    CMS_TEXT(backup_dir, "var/backups"),
    CMS_INT(backup_keep, 7, 0, 100000),
    CMS_INT(slow_request_ms, 1000, 0, 3600000),
    CMS_LIST(status_allow, "127.0.0.1 ::1"),
};

#undef CMS_TEXT
#undef CMS_INT
#undef CMS_LIST

// Published Lin CMS defaults and placeholders: anyone can forge tokens signed with these.
const char *const k_known_secrets[] = {
    "x88Wf0991079889x8796a0Ac68f9ecJJU17c5Vbe8beod7d8d3e695*4",
    "\\x88W\\xf09\\x91\\x07\\x98\\x89\\x87\\x96\\xa0A\\xc68\\xf9\\xecJJU\\x17\\xc5V\\xbe\\x8b\\xef"
    "\\xd7\\xd8\\xd3\\xe6\\x95*4",
    "lin-cms",
    "secret",
    "changeme",
    "change-me",
    "please-change-this-secret-to-something-random",
};

constexpr size_t k_min_secret_bytes = 32;

const Key *find_key(const std::string &name) {
    for (const Key &key : k_keys)
        if (name == key.name)
            return &key;
    return nullptr;
}

std::string trim(const std::string &s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

// Sets key from its text form; returns an error text, or empty on success.
std::string set_value(Config &config, const Key &key, const std::string &value) {
    switch (key.type) {
    case KeyType::text:
        // db_name becomes an argument of mariadb-dump, where "-..." would be read as an option.
        if (key.text == &Config::db_name && (value.empty() || value[0] == '-'))
            return "'" + value + "' is not a database name (empty, or starts with '-')";
        config.*key.text = value;
        return {};
    case KeyType::list: {
        // Commas separate items as spaces do (db_hosts is written host:port,host:port).
        std::string spaced = value;
        std::replace(spaced.begin(), spaced.end(), ',', ' ');
        std::vector<std::string> items;
        std::istringstream in(spaced);
        for (std::string item; in >> item;)
            items.push_back(item);
        config.*key.list = items;
        return {};
    }
    case KeyType::integer: {
        if (value.empty() || value.size() > 18 ||
            !std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }))
            return "'" + value + "' is not a whole number";
        int64_t n = std::stoll(value);
        if (n < key.min || n > key.max)
            return "'" + value + "' is out of range " + std::to_string(key.min) + ".." +
                   std::to_string(key.max);
        config.*key.integer = n;
        return {};
    }
    }
    return "unknown key type";
}

Config defaults() {
    Config config;
    for (const Key &key : k_keys)
        set_value(config, key, key.default_value);
    return config;
}

} // namespace

Config parse_config(const std::string &text, const std::string &origin) {
    Config config = defaults();
    std::vector<std::string> seen;
    std::istringstream in(text);
    std::string raw;
    for (int line_no = 1; std::getline(in, raw); ++line_no) {
        std::string line = trim(raw);
        if (line.empty() || line[0] == '#')
            continue;
        std::string where = "config '" + origin + "' line " + std::to_string(line_no) + ": ";
        size_t eq = line.find('=');
        if (eq == std::string::npos)
            throw ConfigError(where + "expected 'key = value'");
        std::string name = trim(line.substr(0, eq));
        const Key *key = find_key(name);
        if (key == nullptr)
            throw ConfigError(where + "unknown key '" + name + "'");
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
            throw ConfigError(where + "duplicate key '" + name + "'");
        seen.push_back(name);
        std::string error = set_value(config, *key, trim(line.substr(eq + 1)));
        if (!error.empty())
            throw ConfigError(where + "key '" + name + "': " + error);
    }
    return config;
}

void apply_env_overrides(Config &config, char **envp) {
    for (char **e = envp; e != nullptr && *e != nullptr; ++e) {
        if (std::strncmp(*e, "CMS_", 4) != 0)
            continue;
        const char *eq = std::strchr(*e, '=');
        if (eq == nullptr)
            continue;
        std::string raw_name(*e + 4, static_cast<size_t>(eq - (*e + 4)));
        std::string name = text::lower(raw_name);
        // CMS_* variables that are not keys belong to the scripts (CMS_HTTP_PORT, ...).
        const Key *key = find_key(name);
        if (key == nullptr)
            continue;
        std::string error = set_value(config, *key, eq + 1);
        if (!error.empty())
            throw ConfigError("environment CMS_" + raw_name + ": " + error);
    }
}

std::string home_config_path() {
    // Not $HOME: the shell and suexec must agree, and suexec clears it. One look-up of the
    // password database per start (files: a read of /etc/passwd).
    const passwd *user = getpwuid(getuid());
    if (user == nullptr || user->pw_dir == nullptr || user->pw_dir[0] != '/')
        return "";
    std::string path = std::string(user->pw_dir) + "/" + k_home_config;
    return access(path.c_str(), R_OK) == 0 ? path : "";
}

std::vector<std::string> shipped_dirs(const std::string &config_path) {
    std::vector<std::string> dirs;
    if (!config_path.empty()) {
        size_t slash = config_path.rfind('/');
        dirs.push_back(slash == std::string::npos ? "."
                       : slash == 0               ? "/"
                                                  : config_path.substr(0, slash));
    }
    char link[4096];
    ssize_t n = readlink("/proc/self/exe", link, sizeof link - 1);
    if (n <= 0)
        return dirs;
    // The kernel resolved every symlink of the path the binary was started by (~/cms/sbin/...).
    std::string exe(link, static_cast<size_t>(n));
    size_t bin = exe.rfind('/');
    size_t prefix = bin == std::string::npos || bin == 0 ? std::string::npos : exe.rfind('/', bin - 1);
    if (prefix == std::string::npos)
        return dirs;
    dirs.push_back(exe.substr(0, prefix) + "/share/cms-fcgi");
    dirs.push_back(prefix == 0 ? "/" : exe.substr(0, prefix));
    return dirs;
}

void resolve_shipped_paths(Config &config, const std::vector<std::string> &dirs) {
    for (auto [key, path] : {std::pair{"message_file", &config.message_file},
                             std::pair{"sql_dir", &config.sql_dir},
                             std::pair{"content_file", &config.content_file}}) {
        if (path->empty() || (*path)[0] == '/')
            continue;
        if (dirs.empty())
            throw ConfigError(std::string(key) + " '" + *path +
                              "' is relative, and neither the configuration file's directory nor "
                              "the binary's is known: give its absolute path");
        std::string bare = path->rfind("conf/", 0) == 0 ? path->substr(5) : *path;
        std::string found;
        for (const std::string &dir : dirs)
            for (const std::string &candidate : {dir + "/" + *path, dir + "/" + bare})
                if (found.empty() && access(candidate.c_str(), F_OK) == 0)
                    found = candidate;
        *path = found.empty() ? dirs.front() + "/" + *path : found;
    }
}

Config load_config(const std::string &path) {
    Config config = defaults();
    if (!path.empty()) {
        std::ifstream file(path);
        if (!file)
            throw ConfigError("cannot open config '" + path + "'");
        std::ostringstream text;
        text << file.rdbuf();
        config = parse_config(text.str(), path);
    }
    apply_env_overrides(config, environ);
    resolve_shipped_paths(config, shipped_dirs(path));
    return config;
}

void check_config(const Config &config) {
    if (config.jwt_secret.empty())
        throw ConfigError("jwt_secret is not set (set it in the config file or CMS_JWT_SECRET)");
    for (const char *known : k_known_secrets)
        if (config.jwt_secret == known)
            throw ConfigError("jwt_secret is a published default; generate a random one");
    if (config.jwt_secret.size() < k_min_secret_bytes)
        throw ConfigError("jwt_secret is shorter than " + std::to_string(k_min_secret_bytes) +
                          " bytes");
    db_addresses(config);
    if (config.login_captcha != "off" && config.login_captcha != "always" &&
        config.login_captcha != "after_failures")
        throw ConfigError("login_captcha '" + config.login_captcha +
                          "' is none of off, always, after_failures");
    if (config.listen.rfind(":", 0) == 0)
        throw ConfigError("listen '" + config.listen + "' has no host: it would listen on every "
                          "interface; write 127.0.0.1" + config.listen);
    for (const std::string &entry : config.status_allow)
        if (std::string error = address_list::entry_error(entry); !error.empty())
            throw ConfigError("status_allow: " + error);
}

std::vector<DbAddress> db_addresses(const Config &config) {
    if (config.db_hosts.empty())
        return {DbAddress{config.db_host, config.db_port, config.db_socket}};
    std::vector<DbAddress> out;
    for (const std::string &entry : config.db_hosts) {
        if (entry[0] == '/') {
            out.push_back(DbAddress{"localhost", 0, entry});
            continue;
        }
        size_t colon = entry.rfind(':');
        std::string port = colon == std::string::npos ? "" : entry.substr(colon + 1);
        if (colon == 0 || port.empty() || port.size() > 5 ||
            !std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); }) ||
            std::stoi(port) < 1 || std::stoi(port) > 65535)
            throw ConfigError("db_hosts entry '" + entry + "' is neither host:port nor /socket");
        out.push_back(DbAddress{entry.substr(0, colon), std::stoi(port), ""});
    }
    return out;
}

std::vector<std::string> config_keys() {
    std::vector<std::string> names;
    for (const Key &key : k_keys)
        names.emplace_back(key.name);
    return names;
}

std::string config_value(const Config &config, const std::string &name) {
    const Key *key = find_key(name);
    if (key == nullptr)
        throw ConfigError("unknown key '" + name + "'");
    switch (key->type) {
    case KeyType::text:
        return config.*key->text;
    case KeyType::integer:
        return std::to_string(config.*key->integer);
    case KeyType::list: {
        const std::vector<std::string> &items = config.*key->list;
        std::string out;
        for (const std::string &item : items)
            out += (out.empty() ? "" : " ") + item;
        return out;
    }
    }
    return {};
}

} // namespace cms
