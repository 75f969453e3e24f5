// cms-fcgi entry: argv → config → message table → database → FastCGI loop (or one CGI request).
// Start-up failures print one line to stderr and exit 1.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include <fcgiapp.h>
#include <mysql.h>

#include "config.h"
#include "db.h"
#include "errors.h"
#include "fcgi_loop.h"
#include "json.h"
#include "jwt.h"
#include "log.h"
#include "password.h"
#include "permission_store.h"
#include "router.h"

namespace {

constexpr int k_listen_backlog = 1024;

void usage() {
    std::fputs("usage: cms-fcgi [-c FILE] [--listen HOST:PORT|PATH] [-t] [--get KEY]\n"
               "       cms-fcgi --hash-password   (reads the password from stdin)\n"
               "  -c FILE        config file (default: $CMS_CONFIG, else defaults + CMS_* env)\n"
               "  --listen ADDR  accept FastCGI on ADDR instead of the inherited socket (fd 0)\n"
               "  -t             check the config and the message file, then exit\n"
               "  --get KEY      print the effective value of a config key, then exit\n",
               stderr);
}

int hash_password() {
    std::string line;
    if (!std::getline(std::cin, line)) {
        std::fputs("cms-fcgi: no password on stdin\n", stderr);
        return 1;
    }
    std::printf("%s\n", cms::password::hash(line).c_str());
    return 0;
}

int serve(const cms::Config &config, const cms::Messages &messages, const std::string &listen) {
    if (mysql_library_init(0, nullptr, nullptr) != 0) {
        std::fputs("cms-fcgi: cannot initialise the MariaDB client library\n", stderr);
        return 1;
    }
    cms::db::Connection db(config);
    const std::vector<cms::Permission> declared = cms::declared_permissions(cms::route_table());
    // Registered on every (re)connect: idempotent, and a database that was down at start-up
    // gets its permissions as soon as it is back.
    db.on_connect([&declared](cms::db::Connection &conn) {
        cms::PermissionStore(conn).register_declared(declared);
    });
    try {
        db.ensure_connected();
    } catch (const cms::db::DbError &e) {
        cms::log_warn(std::string("database not reachable at start-up, answering 503 until it "
                                  "is: ") + e.what());
    }
    cms::Router router(cms::route_table());
    cms::jwt::Key jwt_key(config.jwt_secret);
    cms::json::BodyParser json(static_cast<int>(config.json_max_depth));
    cms::Service service{config, messages, db, jwt_key, json, router};
    cms::install_stop_handlers();
    if (FCGX_Init() != 0) {
        std::fputs("cms-fcgi: cannot initialise libfcgi\n", stderr);
        return 1;
    }
    int status;
    if (!listen.empty()) {
        int fd = FCGX_OpenSocket(listen.c_str(), k_listen_backlog);
        if (fd < 0) {
            std::fprintf(stderr, "cms-fcgi: cannot listen on '%s'\n", listen.c_str());
            return 1;
        }
        cms::log_info("listening on " + listen);
        status = cms::run_fastcgi(service, fd);
    } else if (FCGX_IsCGI()) {
        status = cms::run_cgi(service);
    } else {
        status = cms::run_fastcgi(service, 0);
    }
    db.drop();
    mysql_library_end();
    return status;
}

} // namespace

int main(int argc, char **argv) {
    std::string config_path;
    std::string listen;
    std::string get_key;
    bool test_only = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        bool has_value = i + 1 < argc;
        if (arg == "-c" && has_value) {
            config_path = argv[++i];
        } else if (arg == "--listen" && has_value) {
            listen = argv[++i];
        } else if (arg == "--get" && has_value) {
            get_key = argv[++i];
        } else if (arg == "-t") {
            test_only = true;
        } else if (arg == "--hash-password") {
            return hash_password();
        } else {
            usage();
            return arg == "-h" || arg == "--help" ? 0 : 2;
        }
    }
    if (config_path.empty() && std::getenv("CMS_CONFIG") != nullptr)
        config_path = std::getenv("CMS_CONFIG");
    try {
        cms::Config config = cms::load_config(config_path);
        if (!get_key.empty()) {
            std::printf("%s\n", cms::config_value(config, get_key).c_str());
            return 0;
        }
        if (listen.empty())
            listen = config.listen;
        else
            config.listen = listen;
        cms::check_config(config);
        cms::Messages messages = cms::Messages::load(config.message_file);
        if (test_only) {
            std::fprintf(stderr, "cms-fcgi: config '%s' is ok\n", config_path.c_str());
            return 0;
        }
        if (!config.log_file.empty() && !cms::log_open(config.log_file.c_str())) {
            std::fprintf(stderr, "cms-fcgi: cannot open log file '%s'\n", config.log_file.c_str());
            return 1;
        }
        return serve(config, messages, listen);
    } catch (const std::runtime_error &e) {
        std::fprintf(stderr, "cms-fcgi: %s\n", e.what());
        return 1;
    }
}
