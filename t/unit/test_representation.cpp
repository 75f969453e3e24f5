// Unit tests for src/api/representation.cpp: the group and permission shapes, permissions grouped by
// module, and avatars as absolute URLs.
#include "api/representation.h"
#include "base/config.h"
#include "db/group_store.h"
#include "db/permission_store.h"

#include <cppunit/extensions/HelperMacros.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using cms::avatar_url;
using cms::Config;
using cms::Group;
using cms::group_json;
using cms::groups_json;
using cms::permission_json;
using cms::PermissionRow;
using cms::permissions_by_module;
using cms::permissions_json;

namespace {

const char *const k_public_url = "http://127.0.0.1:8080/assets/";

Group group(int64_t id, const std::string &name, int level,
            std::optional<std::string> info = std::nullopt) {
    Group g;
    g.id = id;
    g.name = name;
    g.level = level;
    g.info = std::move(info);
    return g;
}

PermissionRow permission(int64_t id, const std::string &module, const std::string &name,
                         bool mount = true) {
    PermissionRow p;
    p.id = id;
    p.module = module;
    p.name = name;
    p.mount = mount;
    return p;
}

Json::Value parsed(const std::string &text) {
    Json::Value value;
    Json::CharReaderBuilder builder;
    std::string errors;
    std::istringstream in(text);
    CPPUNIT_ASSERT_MESSAGE(text, Json::parseFromStream(builder, in, &value, &errors));
    return value;
}

// The ids of a JSON array of permissions, as "5,2,9".
std::string ids_of(const Json::Value &list) {
    std::string out;
    for (const Json::Value &item : list)
        out += (out.empty() ? "" : ",") + std::to_string(item["id"].asInt64());
    return out;
}

// The member names of an object in the order jsoncpp keeps them, as "id,name".
std::string keys_of(const Json::Value &object) {
    std::string out;
    for (const std::string &key : object.getMemberNames())
        out += (out.empty() ? "" : ",") + key;
    return out;
}

Json::Value avatar_of(const std::optional<std::string> &avatar) {
    Config config;
    config.file_public_url = k_public_url;
    return avatar_url(avatar, config);
}

} // namespace

class RepresentationTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(RepresentationTest);
    CPPUNIT_TEST(group_json_has_id_name_info_and_level);
    CPPUNIT_TEST(group_level_names_are_root_guest_user);
    CPPUNIT_TEST(group_info_is_null_when_absent);
    CPPUNIT_TEST(groups_json_keeps_the_order);
    CPPUNIT_TEST(permission_json_has_exactly_id_name_module_mount);
    CPPUNIT_TEST(permission_mount_is_a_boolean);
    CPPUNIT_TEST(permissions_json_keeps_the_order);
    CPPUNIT_TEST(permissions_by_module_groups_by_module);
    CPPUNIT_TEST(permissions_by_module_keeps_the_order_within_a_module);
    CPPUNIT_TEST(permissions_by_module_of_none_is_an_empty_object);
    CPPUNIT_TEST(avatar_absent_is_null);
    CPPUNIT_TEST(avatar_empty_is_sent_as_given);
    CPPUNIT_TEST(avatar_path_is_prefixed_with_the_public_url);
    CPPUNIT_TEST(avatar_http_and_https_urls_are_unchanged);
    CPPUNIT_TEST_SUITE_END();

  public:
    void group_json_has_id_name_info_and_level() {
        CPPUNIT_ASSERT_EQUAL(
            parsed(R"({"id": 7, "name": "编辑", "info": "图书编辑", "level": "USER"})"),
            group_json(group(7, "编辑", 3, "图书编辑")));
    }

    void group_level_names_are_root_guest_user() {
        CPPUNIT_ASSERT_EQUAL(Json::Value("ROOT"), group_json(group(1, "root", 1))["level"]);
        CPPUNIT_ASSERT_EQUAL(Json::Value("GUEST"), group_json(group(2, "guest", 2))["level"]);
        CPPUNIT_ASSERT_EQUAL(Json::Value("USER"), group_json(group(3, "editors", 3))["level"]);
    }

    void group_info_is_null_when_absent() {
        Json::Value out = group_json(group(3, "editors", 3));
        CPPUNIT_ASSERT(out.isMember("info"));
        CPPUNIT_ASSERT(out["info"].isNull());
        CPPUNIT_ASSERT_EQUAL(Json::Value(""), group_json(group(3, "editors", 3, ""))["info"]);
    }

    void groups_json_keeps_the_order() {
        Json::Value out = groups_json({group(5, "e", 3), group(2, "guest", 2), group(9, "f", 3)});
        CPPUNIT_ASSERT(out.isArray());
        CPPUNIT_ASSERT_EQUAL(std::string("5,2,9"), ids_of(out));
    }

    void permission_json_has_exactly_id_name_module_mount() {
        Json::Value out = permission_json(permission(4, "图书", "删除图书"));
        CPPUNIT_ASSERT_EQUAL(
            parsed(R"({"id": 4, "name": "删除图书", "module": "图书", "mount": true})"), out);
        CPPUNIT_ASSERT_EQUAL(std::string("id,module,mount,name"), keys_of(out));
    }

    void permission_mount_is_a_boolean() {
        CPPUNIT_ASSERT(permission_json(permission(4, "图书", "删除图书"))["mount"].isBool());
        Json::Value unmounted = permission_json(permission(4, "图书", "删除图书", false))["mount"];
        CPPUNIT_ASSERT(unmounted.isBool());
        CPPUNIT_ASSERT_EQUAL(false, unmounted.asBool());
    }

    void permissions_json_keeps_the_order() {
        Json::Value out = permissions_json(
            {permission(3, "日志", "搜索日志"), permission(1, "日志", "查询所有日志")});
        CPPUNIT_ASSERT(out.isArray());
        CPPUNIT_ASSERT_EQUAL(std::string("3,1"), ids_of(out));
    }

    void permissions_by_module_groups_by_module() {
        Json::Value out = permissions_by_module({permission(4, "图书", "删除图书"),
                                                 permission(1, "日志", "查询所有日志"),
                                                 permission(2, "日志", "搜索日志")});
        CPPUNIT_ASSERT_EQUAL(std::string("图书,日志"), keys_of(out));
        CPPUNIT_ASSERT_EQUAL(parsed(R"([{"id": 4, "name": "删除图书", "module": "图书",
                                         "mount": true}])"),
                             out["图书"]);
        CPPUNIT_ASSERT_EQUAL(std::string("1,2"), ids_of(out["日志"]));
    }

    void permissions_by_module_keeps_the_order_within_a_module() {
        Json::Value out =
            permissions_by_module({permission(5, "日志", "a"), permission(7, "图书", "b"),
                                   permission(2, "日志", "c"), permission(9, "日志", "d")});
        CPPUNIT_ASSERT_EQUAL(std::string("5,2,9"), ids_of(out["日志"]));
        CPPUNIT_ASSERT_EQUAL(std::string("7"), ids_of(out["图书"]));
    }

    void permissions_by_module_of_none_is_an_empty_object() {
        Json::Value out = permissions_by_module({});
        CPPUNIT_ASSERT(out.isObject());
        CPPUNIT_ASSERT_EQUAL(Json::ArrayIndex(0), out.size());
    }

    void avatar_absent_is_null() { CPPUNIT_ASSERT(avatar_of(std::nullopt).isNull()); }

    // An empty stored avatar is not prefixed into the bare public URL.
    void avatar_empty_is_sent_as_given() {
        CPPUNIT_ASSERT_EQUAL(Json::Value(""), avatar_of(std::string("")));
    }

    void avatar_path_is_prefixed_with_the_public_url() {
        CPPUNIT_ASSERT_EQUAL(Json::Value(std::string(k_public_url) + "2024/01/02/a1b2.png"),
                             avatar_of(std::string("2024/01/02/a1b2.png")));
    }

    void avatar_http_and_https_urls_are_unchanged() {
        for (const char *url : {"http://cdn.example.cn/a.png", "https://cdn.example.cn/a.png"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(url, Json::Value(url), avatar_of(std::string(url)));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RepresentationTest);
