// Unit tests for src/base/config.cpp: defaults, the file parser and its errors (file, line, key),
// bounds, CMS_<KEY> overrides from a local environment block, and the start-up checks.
#include "base/config.h"

#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

using cms::apply_env_overrides;
using cms::check_config;
using cms::Config;
using cms::config_value;
using cms::ConfigError;
using cms::DbAddress;
using cms::parse_config;

namespace {

const std::string k_origin = "test.conf";
// 32 bytes: the shortest secret check_config accepts.
const std::string k_secret_32 = "0123456789abcdef0123456789ABCDEF";

Config parsed(const std::string &text) {
    return parse_config(text, k_origin);
}

// The message of the ConfigError that parsing text throws; fails the test when it does not throw.
std::string parse_error(const std::string &text) {
    try {
        parsed(text);
    } catch (const ConfigError &e) {
        return e.what();
    }
    CPPUNIT_FAIL("parse_config accepted: " + text);
}

std::string check_error(const Config &config) {
    try {
        check_config(config);
    } catch (const ConfigError &e) {
        return e.what();
    }
    CPPUNIT_FAIL("check_config accepted jwt_secret '" + config.jwt_secret + "' listen '" +
                 config.listen + "'");
}

std::string env_error(Config &config, char **envp) {
    try {
        apply_env_overrides(config, envp);
    } catch (const ConfigError &e) {
        return e.what();
    }
    CPPUNIT_FAIL("apply_env_overrides accepted the environment");
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

Config with_secret(const std::string &secret) {
    Config config = parsed("");
    config.jwt_secret = secret;
    return config;
}

} // namespace

class ConfigTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(ConfigTest);
    CPPUNIT_TEST(empty_text_gives_the_defaults);
    CPPUNIT_TEST(values_are_read_and_trimmed);
    CPPUNIT_TEST(comments_and_blank_lines_are_skipped);
    CPPUNIT_TEST(unknown_key_names_file_line_and_key);
    CPPUNIT_TEST(line_without_equals_sign_names_its_line);
    CPPUNIT_TEST(duplicate_key_is_refused);
    CPPUNIT_TEST(non_numeric_int_is_refused);
    CPPUNIT_TEST(out_of_range_int_is_refused);
    CPPUNIT_TEST(int_bounds_are_inclusive);
    CPPUNIT_TEST(db_name_that_an_option_parser_would_take_is_refused);
    CPPUNIT_TEST(cors_star_is_kept_as_the_any_origin_item);
    CPPUNIT_TEST(cors_empty_value_is_the_empty_list);
    CPPUNIT_TEST(cors_list_is_split_on_whitespace);
    CPPUNIT_TEST(db_addresses_without_db_hosts_is_db_host_port_socket);
    CPPUNIT_TEST(db_hosts_are_split_on_commas_in_order);
    CPPUNIT_TEST(db_hosts_entry_without_port_is_refused);
    CPPUNIT_TEST(env_overrides_set_keys);
    CPPUNIT_TEST(env_override_key_lookup_is_lower_cased);
    CPPUNIT_TEST(env_cms_variable_that_is_not_a_key_is_ignored);
    CPPUNIT_TEST(env_bad_value_throws_naming_the_variable);
    CPPUNIT_TEST(env_null_block_changes_nothing);
    CPPUNIT_TEST(check_refuses_empty_secret);
    CPPUNIT_TEST(check_refuses_31_byte_secret);
    CPPUNIT_TEST(check_refuses_lin_cms_default_secret);
    CPPUNIT_TEST(check_refuses_listen_without_host);
    CPPUNIT_TEST(check_refuses_unknown_login_captcha_mode);
    CPPUNIT_TEST(status_allow_is_loopback_only_by_default);
    CPPUNIT_TEST(check_refuses_a_status_allow_entry_that_is_no_address);
    CPPUNIT_TEST(check_accepts_32_byte_secret);
    CPPUNIT_TEST(config_value_gives_text_int_and_list_keys);
    CPPUNIT_TEST(config_value_of_unknown_key_throws);
    CPPUNIT_TEST(shipped_example_parses_and_documents_every_key);
    CPPUNIT_TEST_SUITE_END();

  public:
    void empty_text_gives_the_defaults() {
        Config c = parsed("");
        CPPUNIT_ASSERT_EQUAL(std::string(""), c.listen);
        CPPUNIT_ASSERT_EQUAL(int64_t(4), c.workers);
        CPPUNIT_ASSERT_EQUAL(std::string("localhost"), c.db_host);
        CPPUNIT_ASSERT_EQUAL(int64_t(3306), c.db_port);
        CPPUNIT_ASSERT_EQUAL(std::string("cms"), c.db_user);
        CPPUNIT_ASSERT_EQUAL(std::string("cms"), c.db_name);
        CPPUNIT_ASSERT_EQUAL(std::string(""), c.jwt_secret);
        CPPUNIT_ASSERT_EQUAL(int64_t(3600), c.access_token_lifetime);
        CPPUNIT_ASSERT_EQUAL(int64_t(2592000), c.refresh_token_lifetime);
        CPPUNIT_ASSERT_EQUAL(int64_t(1048576), c.max_body_bytes);
        CPPUNIT_ASSERT_EQUAL(int64_t(32), c.json_max_depth);
        CPPUNIT_ASSERT_EQUAL(std::string("*"), config_value(c, "cors_allowed_origins"));
        CPPUNIT_ASSERT_EQUAL(std::string("conf/code-message.properties"), c.message_file);
    }

    void values_are_read_and_trimmed() {
        Config c = parsed("workers=8\n  db_host   =   db.internal  \ndb_password = a b=c\n");
        CPPUNIT_ASSERT_EQUAL(int64_t(8), c.workers);
        CPPUNIT_ASSERT_EQUAL(std::string("db.internal"), c.db_host);
        CPPUNIT_ASSERT_EQUAL(std::string("a b=c"), c.db_password);
    }

    void comments_and_blank_lines_are_skipped() {
        Config c = parsed("# workers = 99\n\n   \n  # indented = comment\nworkers = 8\n");
        CPPUNIT_ASSERT_EQUAL(int64_t(8), c.workers);
    }

    void unknown_key_names_file_line_and_key() {
        std::string what = parse_error("# comment\nworkers = 8\n\ndb_hots = x\n");
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "test.conf"));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "line 4"));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "db_hots"));
    }

    void line_without_equals_sign_names_its_line() {
        std::string what = parse_error("workers = 8\nworkers 9\n");
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "line 2"));
    }

    void duplicate_key_is_refused() {
        std::string what = parse_error("workers = 2\ndb_port = 3307\nworkers = 3\n");
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "line 3"));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "workers"));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "duplicate"));
    }

    void non_numeric_int_is_refused() {
        for (const char *value :
             {"many", "-1", "1.5", "8k", "+8", "0x10", "", "1 2", "99999999999999999999"}) {
            std::string what = parse_error("\nworkers = " + std::string(value) + "\n");
            CPPUNIT_ASSERT_MESSAGE(value + (": " + what), contains(what, "line 2"));
            CPPUNIT_ASSERT_MESSAGE(value + (": " + what), contains(what, "workers"));
        }
    }

    void out_of_range_int_is_refused() {
        CPPUNIT_ASSERT_THROW(parsed("workers = 0\n"), ConfigError);
        CPPUNIT_ASSERT_THROW(parsed("workers = 257\n"), ConfigError);
        CPPUNIT_ASSERT_THROW(parsed("db_port = 65536\n"), ConfigError);
        CPPUNIT_ASSERT_THROW(parsed("json_max_depth = 1\n"), ConfigError);
        CPPUNIT_ASSERT_THROW(parsed("max_body_bytes = 1023\n"), ConfigError);
        std::string what = parse_error("workers = 257\n");
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "1..256"));
    }

    void int_bounds_are_inclusive() {
        CPPUNIT_ASSERT_EQUAL(int64_t(1), parsed("workers = 1\n").workers);
        CPPUNIT_ASSERT_EQUAL(int64_t(256), parsed("workers = 256\n").workers);
        CPPUNIT_ASSERT_EQUAL(int64_t(65535), parsed("db_port = 65535\n").db_port);
        CPPUNIT_ASSERT_EQUAL(int64_t(2), parsed("json_max_depth = 2\n").json_max_depth);
    }

    // db_name is an argument of mariadb-dump: "-..." would be an option there.
    void db_name_that_an_option_parser_would_take_is_refused() {
        for (const char *value : {"-x", "--result-file=/tmp/x", ""}) {
            std::string what = parse_error("\ndb_name = " + std::string(value) + "\n");
            CPPUNIT_ASSERT_MESSAGE(value + (": " + what), contains(what, "line 2"));
            CPPUNIT_ASSERT_MESSAGE(value + (": " + what), contains(what, "db_name"));
        }
        char name[] = "CMS_DB_NAME=--all-databases";
        char *env[] = {name, nullptr};
        Config c = parsed("");
        std::string what = env_error(c, env);
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "CMS_DB_NAME"));
        CPPUNIT_ASSERT_EQUAL(std::string("my-cms"), parsed("db_name = my-cms\n").db_name);
    }

    // config.h: "*" among the origins allows any; it is kept as an item, not turned into [].
    void cors_star_is_kept_as_the_any_origin_item() {
        Config c = parsed("cors_allowed_origins = *\n");
        CPPUNIT_ASSERT_EQUAL(std::size_t(1), c.cors_allowed_origins.size());
        CPPUNIT_ASSERT_EQUAL(std::string("*"), c.cors_allowed_origins[0]);
    }

    void cors_empty_value_is_the_empty_list() {
        CPPUNIT_ASSERT(parsed("cors_allowed_origins =\n").cors_allowed_origins.empty());
    }

    void cors_list_is_split_on_whitespace() {
        Config c = parsed("cors_allowed_origins = https://a.example   https://b.example\n");
        CPPUNIT_ASSERT_EQUAL(std::size_t(2), c.cors_allowed_origins.size());
        CPPUNIT_ASSERT_EQUAL(std::string("https://a.example"), c.cors_allowed_origins[0]);
        CPPUNIT_ASSERT_EQUAL(std::string("https://b.example"), c.cors_allowed_origins[1]);
        Config two = parsed("cors_allowed_origins = a b\n");
        CPPUNIT_ASSERT_EQUAL(std::size_t(2), two.cors_allowed_origins.size());
    }

    void db_addresses_without_db_hosts_is_db_host_port_socket() {
        std::vector<DbAddress> a = db_addresses(parsed("db_host = h\ndb_port = 3307\n"));
        CPPUNIT_ASSERT_EQUAL(std::size_t(1), a.size());
        CPPUNIT_ASSERT_EQUAL(std::string("h"), a[0].host);
        CPPUNIT_ASSERT_EQUAL(int64_t(3307), a[0].port);
        CPPUNIT_ASSERT(a[0].socket.empty());
    }

    void db_hosts_are_split_on_commas_in_order() {
        std::vector<DbAddress> a =
            db_addresses(parsed("db_host = ignored\ndb_hosts = b:3307,a:3308, /run/c.sock\n"));
        CPPUNIT_ASSERT_EQUAL(std::size_t(3), a.size());
        CPPUNIT_ASSERT_EQUAL(std::string("b"), a[0].host);
        CPPUNIT_ASSERT_EQUAL(int64_t(3307), a[0].port);
        CPPUNIT_ASSERT_EQUAL(std::string("a"), a[1].host);
        CPPUNIT_ASSERT_EQUAL(int64_t(3308), a[1].port);
        CPPUNIT_ASSERT_EQUAL(std::string("/run/c.sock"), a[2].socket);
    }

    void db_hosts_entry_without_port_is_refused() {
        Config c = with_secret(k_secret_32);
        c.db_hosts = {"db1:3306", "db2"};
        CPPUNIT_ASSERT_THROW(check_config(c), ConfigError);
        c.db_hosts = {"db1:3306", "db2:0"};
        CPPUNIT_ASSERT_THROW(check_config(c), ConfigError);
        c.db_hosts = {"db1:3306", "db2:3306"};
        check_config(c);
    }

    void env_overrides_set_keys() {
        char workers[] = "CMS_WORKERS=8";
        char secret[] = "CMS_JWT_SECRET=0123456789abcdef0123456789ABCDEF";
        char path[] = "PATH=/usr/bin";
        char *env[] = {path, workers, secret, nullptr};
        Config c = parsed("workers = 2\n");
        apply_env_overrides(c, env);
        CPPUNIT_ASSERT_EQUAL(int64_t(8), c.workers);
        CPPUNIT_ASSERT_EQUAL(k_secret_32, c.jwt_secret);
    }

    void env_override_key_lookup_is_lower_cased() {
        char name[] = "CMS_DB_NAME=lincms";
        char port[] = "CMS_Db_Port=3307";
        char *env[] = {name, port, nullptr};
        Config c = parsed("");
        apply_env_overrides(c, env);
        CPPUNIT_ASSERT_EQUAL(std::string("lincms"), c.db_name);
        CPPUNIT_ASSERT_EQUAL(int64_t(3307), c.db_port);
    }

    void env_cms_variable_that_is_not_a_key_is_ignored() {
        char port[] = "CMS_HTTP_PORT=not-a-number";
        char bare[] = "CMS_";
        char lower[] = "cms_workers=9";
        char *env[] = {port, bare, lower, nullptr};
        Config c = parsed("");
        CPPUNIT_ASSERT_NO_THROW(apply_env_overrides(c, env));
        CPPUNIT_ASSERT_EQUAL(int64_t(4), c.workers);
    }

    void env_bad_value_throws_naming_the_variable() {
        char workers[] = "CMS_WORKERS=eight";
        char *env[] = {workers, nullptr};
        Config c = parsed("");
        std::string what = env_error(c, env);
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "CMS_WORKERS"));
        char zero[] = "CMS_WORKERS=0";
        char *out_of_range[] = {zero, nullptr};
        CPPUNIT_ASSERT_THROW(apply_env_overrides(c, out_of_range), ConfigError);
    }

    void env_null_block_changes_nothing() {
        Config c = parsed("workers = 2\n");
        apply_env_overrides(c, nullptr);
        CPPUNIT_ASSERT_EQUAL(int64_t(2), c.workers);
    }

    void check_refuses_empty_secret() {
        std::string what = check_error(with_secret(""));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "jwt_secret"));
    }

    void check_refuses_31_byte_secret() {
        std::string what = check_error(with_secret(k_secret_32.substr(0, 31)));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "32"));
    }

    void check_refuses_lin_cms_default_secret() {
        std::string what =
            check_error(with_secret("x88Wf0991079889x8796a0Ac68f9ecJJU17c5Vbe8beod7d8d3e695*4"));
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "published default"));
    }

    void check_refuses_listen_without_host() {
        Config c = with_secret(k_secret_32);
        c.listen = ":9000";
        std::string what = check_error(c);
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, ":9000"));
    }

    void check_refuses_unknown_login_captcha_mode() {
        Config c = with_secret(k_secret_32);
        CPPUNIT_ASSERT_EQUAL(std::string("after_failures"), c.login_captcha);
        for (const char *mode : {"off", "always", "after_failures"}) {
            c.login_captcha = mode;
            CPPUNIT_ASSERT_NO_THROW(check_config(c));
        }
        c.login_captcha = "sometimes";
        std::string what = check_error(c);
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "login_captcha 'sometimes'"));
    }

    void status_allow_is_loopback_only_by_default() {
        // Not unix:, which is every client of a web server that a proxy reaches on a unix socket.
        CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1 ::1"), config_value(parsed(""), "status_allow"));
    }

    void check_refuses_a_status_allow_entry_that_is_no_address() {
        Config c = with_secret(k_secret_32);
        c.status_allow = {"127.0.0.1", "unix:", "10.0.0.0/8", "*"};
        CPPUNIT_ASSERT_NO_THROW(check_config(c));
        c.status_allow = {"127.0.0.1", "10.0.0.0/33"};
        std::string what = check_error(c);
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "status_allow: '10.0.0.0/33'"));
        c.status_allow = {"localhost"};
        what = check_error(c);
        CPPUNIT_ASSERT_MESSAGE(what, contains(what, "status_allow: 'localhost'"));
    }

    void check_accepts_32_byte_secret() {
        Config c = with_secret(k_secret_32);
        CPPUNIT_ASSERT_NO_THROW(check_config(c));
        c.listen = "127.0.0.1:9000";
        CPPUNIT_ASSERT_NO_THROW(check_config(c));
    }

    void config_value_gives_text_int_and_list_keys() {
        Config c = parsed("db_host = db.internal\nworkers = 7\n");
        CPPUNIT_ASSERT_EQUAL(std::string("db.internal"), config_value(c, "db_host"));
        CPPUNIT_ASSERT_EQUAL(std::string("7"), config_value(c, "workers"));
        CPPUNIT_ASSERT_EQUAL(std::string("*"), config_value(c, "cors_allowed_origins"));
        Config listed = parsed("cors_allowed_origins = a  b\n");
        CPPUNIT_ASSERT_EQUAL(std::string("a b"), config_value(listed, "cors_allowed_origins"));
    }

    void config_value_of_unknown_key_throws() {
        CPPUNIT_ASSERT_THROW(config_value(parsed(""), "no_such_key"), ConfigError);
        CPPUNIT_ASSERT_THROW(config_value(parsed(""), "WORKERS"), ConfigError);
    }

    // conf/cms.conf.example is the documentation of every key: it must parse (the unit binary
    // runs from the repository top) and set each key of the table, with its default value.
    void shipped_example_parses_and_documents_every_key() {
        std::ifstream file("conf/cms.conf.example");
        CPPUNIT_ASSERT_MESSAGE("cannot open conf/cms.conf.example", file.good());
        std::ostringstream text;
        text << file.rdbuf();
        cms::Config example = cms::parse_config(text.str(), "conf/cms.conf.example");
        cms::Config defaults = parsed("");
        for (const std::string &key : cms::config_keys()) {
            CPPUNIT_ASSERT_MESSAGE("undocumented key " + key,
                                   text.str().find("\n" + key + " =") != std::string::npos);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(key, config_value(defaults, key),
                                         config_value(example, key));
        }
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConfigTest);
