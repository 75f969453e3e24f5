// The commands of cms-fcgi that are neither the pool nor a CGI request: status, hash-password,
// backup and restore, setup-db. Each prints what it did and returns the exit status; a
// std::runtime_error is the one line main prints.
#include "cli/commands.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <json/json.h>
#include <unistd.h>

#include "api/user_rules.h"
#include "auth/password.h"
#include "base/config.h"
#include "base/log.h"
#include "cli/backup.h"
#include "cli/fcgi_client.h"
#include "cli/restore.h"
#include "cli/setup_db.h"
#include "content/apply.h"
#include "content/catalog.h"
#include "http/router.h"
#include "db/db.h"
#include "db/schema.h"
#include "metrics/status_page.h"

namespace cms {

// `cms-fcgi status`: the pool's own status page, asked over its socket, as a few lines.
int cmd_status(const std::string &address) {
    if (address.empty())
        throw std::runtime_error("status: no socket to ask: give --listen ADDR, or set listen in "
                                 "the config");
    // A process that can open the pool's socket may name any client address; this one is on the
    // pool's host, on a unix socket too, and asks as loopback, which status_allow lets in by
    // default (unix: no longer is: behind a proxy it was every client).
    std::string answer = fcgi_request(
        address, {{"GATEWAY_INTERFACE", "CGI/1.1"}, {"SERVER_PROTOCOL", "HTTP/1.1"},
                  {"REQUEST_METHOD", "GET"}, {"PATH_INFO", "/status"}, {"REQUEST_URI", "/status"},
                  {"QUERY_STRING", ""}, {"REMOTE_ADDR", "127.0.0.1"}});
    size_t blank = answer.find("\r\n\r\n");
    if (answer.compare(0, 11, "Status: 200") != 0 || blank == std::string::npos)
        throw std::runtime_error("status: the pool at '" + address + "' answered: " +
                                 answer.substr(0, answer.find('\r')));
    Json::Value page;
    std::string body = answer.substr(blank + 4);
    std::unique_ptr<Json::CharReader> reader(Json::CharReaderBuilder().newCharReader());
    if (!reader->parse(body.data(), body.data() + body.size(), &page, nullptr) ||
        !page.isObject() || page["pool"].isNull())
        throw std::runtime_error("status: '" + address + "' answers without a pool");
    std::fputs(status_summary(page).c_str(), stdout);
    return 0;
}

int cmd_hash_password() {
    std::string line;
    if (!std::getline(std::cin, line)) {
        std::fputs("cms-fcgi: no password on stdin\n", stderr);
        return 1;
    }
    if (!password_allowed(line)) {
        std::fprintf(stderr,
                     "cms-fcgi: the password breaks the password rule (%s): its user could never "
                     "set it again through the client\n",
                     k_password_rule);
        return 1;
    }
    std::printf("%s\n", password::hash(line).c_str());
    return 0;
}

// --backup (into dir, backup_dir when empty) or --restore archive; the archive's path on stdout,
// the steps on stderr (and to log_file). Throws with the reason on failure.
int cmd_backup_or_restore(const Config &config, const std::string &dir,
                          const std::string &archive, const RestoreOptions &options) {
    try {
        if (archive.empty()) {
            std::string path = make_backup(config, dir.empty() ? config.backup_dir : dir, stderr);
            std::printf("%s\n", path.c_str());
        } else {
            restore_backup(config, archive, options, stderr);
        }
    } catch (const std::exception &e) {
        // A logic_error too (a jsoncpp type error, std::stoll): caught, it unwinds, so the
        // scratch directory (the dump, the option file with the password) and a partial archive
        // are removed; uncaught, it would end the program with them left behind.
        log_error(std::string(archive.empty() ? "backup failed: " : "restore failed: ") +
                       e.what());
        throw std::runtime_error(e.what());
    }
    return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}

int cmd_check_content(const Config &config, const std::string &path, bool with_database) {
    content::Limits limits = content::limits_of(config, route_table());
    content::Declaration declared = content::check_file(path, limits);
    std::printf("content declaration '%s' is ok: %zu collection(s)\n", path.c_str(),
                declared.collections.size());
    if (with_database) {
        db::Connection conn(config);
        schema::check_version(conn, config.db_name);
        content::apply(conn, declared, limits, true, stdout);
    }
    return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}

int cmd_setup_db(const Config &config, const std::string &db_admin) {
    if (db_admin.empty())
        setup_database(config, std::cin, isatty(0) != 0, stdout, true);
    else
        setup_database_as(db_admin, config, std::cin, isatty(0) != 0, stdout);
    return 0;
}

} // namespace cms
