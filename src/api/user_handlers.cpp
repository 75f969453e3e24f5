// User routes: texts of doc/lin-cms.md §2.4, login with captcha and re-hash, registration rules
// of §4.1.
#include "api/user_handlers.h"

#include "api/login_throttle.h"
#include "api/representation.h"
#include "api/user_rules.h"
#include "auth/captcha.h"
#include "auth/captcha_image.h"
#include "auth/password.h"
#include "base/base64.h"
#include "base/config.h"
#include "base/errors.h"
#include "db/captcha_store.h"
#include "db/group_store.h"
#include "db/permission_store.h"
#include "db/throttle_store.h"
#include "db/user_store.h"
#include "http/authorize.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"

namespace cms {

namespace {

// A login password longer than this cannot be one we stored; it is refused without hashing.
constexpr size_t k_max_login_password = 256;

// The hash verified when the username does not exist, so that both failures take as long.
const std::string &dummy_hash() {
    static const std::string hash = password::hash("cms-fcgi timing equaliser");
    return hash;
}

// A spent tag's row is kept this long past its expiry, by the app's clock: another host whose
// clock is behind this one's by less than that still finds it spent.
constexpr int64_t k_spent_grace = 3600;

// Whom a password check counts against: username (username_throttle_name of the name typed at
// login, or of the user's current name at change_password) and account (account_throttle_name of
// the user, "" for a name no user has), from address (the client's, as the throttle counts it). Its count is the failures of
// both, and its own failure is recorded under account when there is one: so login and
// change_password share one count per user, and a rename (PUT /cms/user takes no password)
// starts no fresh one.
struct CheckedFor {
    std::string username;
    std::string account;
    std::string address;
};

// Counts a failed password check (checked: false for a refusal for the captcha, before any
// password was checked), then answers with error: returned, not thrown, so that the count commits.
[[nodiscard]] Response fail_password(const CheckedFor &who, bool checked, const Request &req,
                                     Ctx &ctx, const ApiError &error) {
    ThrottleStore(ctx.db).record_failure(who.account.empty() ? who.username : who.account,
                                         who.address, ctx.config.login_failure_window, checked);
    return refusal(error, req, ctx);
}

// 409 for a username or email a live user has.
ApiError taken(UserWrite result) {
    return ApiError(409, result == UserWrite::email_taken ? Code::email_taken
                                                          : Code::username_taken);
}

// Whether the request's tag header opens, was never tried before, has not expired, and seals the
// code typed as `captcha`. The tag is spent whatever the answer: one guess per image.
bool captcha_solved(const Json::Value &body, const Request &req, Ctx &ctx) {
    std::optional<captcha::Opened> tag =
        captcha::open(req.captcha_tag, captcha::derive_key(ctx.config.jwt_secret));
    if (!tag)
        return false;
    bool first_try = CaptchaStore(ctx.db).spend(tag->nonce, tag->expires);
    const Json::Value &typed = body["captcha"];
    return first_try && tag->expires > now_seconds() && typed.isString() &&
           captcha::code_matches(tag->code, typed.asString());
}

// What every password check (login, change_password) passes before the hash is verified, once
// its handler has locked the gate (ThrottleStore::gate, before the transaction's first plain
// read, so that these counts and the failure this check may record are one step): 429/10140,
// thrown, when the throttling rule refuses; and the captcha when one is asked, whose refusal is
// returned (400/10260, counted).
std::optional<Response> before_password_check(const CheckedFor &who, const Json::Value &body,
                                              const Request &req, Ctx &ctx) {
    LoginFailures failures = ThrottleStore(ctx.db).recent(who.username, who.account, who.address,
                                                          ctx.config.login_failure_window);
    if (login_refused(failures, ctx.config))
        throw ApiError(429, Code::too_many_requests);
    // Which of missing, wrong, expired, spent or forged it was is not told: each is one failure.
    if (login_captcha_asked(failures, ctx.config) && !captcha_solved(body, req, ctx))
        return fail_password(who, false, req, ctx, ApiError(400, Code::captcha_wrong));
    return std::nullopt;
}

Json::Value user_permissions_json(const std::vector<PermissionRow> &rows) {
    Json::Value by_module = Json::Value(Json::objectValue);
    for (const PermissionRow &row : rows) {
        Json::Value item(Json::objectValue);
        item["module"] = row.module;
        item["permission"] = row.name;
        Json::Value &list = by_module[row.module];
        if (list.isNull())
            list = Json::Value(Json::arrayValue);
        list.append(item);
    }
    Json::Value out(Json::arrayValue);
    for (const std::string &module : by_module.getMemberNames()) {
        Json::Value entry(Json::objectValue);
        entry[module] = by_module[module];
        out.append(entry);
    }
    return out;
}

} // namespace

Response handle_user_login(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    std::string username = validate::required_text(body, "username", 100,
                                                   FieldText::username_not_blank,
                                                   FieldText::username_length, problems);
    std::string password = validate::required_text(body, "password", k_max_login_password,
                                                   FieldText::password_new_not_blank,
                                                   FieldText::login_password_length, problems);
    problems.check();
    std::string address = throttle_address(req.remote_addr, ctx.config);
    ThrottleStore(ctx.db).gate(username, address);
    UserStore users(ctx.db);
    std::optional<LoginIdentity> identity = users.find_login(username);
    CheckedFor who{username_throttle_name(username, ctx.config.jwt_secret),
                   identity ? account_throttle_name(identity->user_id) : "", address};
    if (std::optional<Response> refused = before_password_check(who, body, req, ctx))
        return *refused;
    // Unknown user and wrong password look alike, down to the time a hash takes.
    if (!password::verify(password, identity ? identity->credential : dummy_hash()) || !identity)
        return fail_password(who, true, req, ctx, ApiError(401, Code::login_failed));
    // The password may have changed while the hash was being verified: the tokens must not carry
    // a credential version newer than the hash that matched. Returned, not thrown: a captcha
    // tag tried above stays spent.
    if (users.lock_credential_version(identity->user_id) != identity->credential_version)
        return refusal(ApiError(401, Code::login_failed), req, ctx);
    std::optional<Principal> user = users.find_principal(identity->user_id);
    if (!user)
        return refusal(ApiError(401, Code::login_failed), req, ctx);
    if (password::needs_rehash(identity->credential))
        users.rehash(identity->identity_id, identity->credential, password::hash(password));
    // Only this address's failures: the owner's login must not free the addresses guessing.
    ThrottleStore(ctx.db).clear(who.username, who.account, address);
    ctx.user = std::move(user); // the principal of the behaviour-log row
    return Response::json(200, issue_tokens(ctx, *ctx.user, now_seconds()));
}

Response handle_user_refresh(const Request &, Ctx &ctx) {
    return Response::json(200, issue_tokens(ctx, *ctx.user, now_seconds()));
}

Response handle_user_register(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    NewUser user;
    user.username = validate::required_text(body, "username", 10, FieldText::username_not_blank,
                                            FieldText::username_length, problems);
    if (!user.username.empty() && validate::length(user.username) < 2)
        problems.add("username", FieldText::username_length);
    std::string password = new_password(body, "password", problems);
    user.email = email_member(body, problems);
    std::vector<int64_t> group_ids =
        validate::id_list_member(body, "group_ids", FieldText::group_ids_positive, problems)
            .value_or(std::vector<int64_t>());
    problems.check();

    UserStore users(ctx.db);
    GroupStore groups(ctx.db);
    if (users.username_taken(user.username))
        throw ApiError(409, Code::username_taken);
    if (user.email && users.email_taken(*user.email))
        throw ApiError(409, Code::email_taken);
    // Locked, so that a group deleted meanwhile cannot end up with this user (see group delete).
    Membership membership = groups.lock_for_members(group_ids);
    if (membership == Membership::root_group)
        throw ApiError(403, Code::root_group_no_users);
    if (membership == Membership::missing)
        throw ApiError(404, Code::register_group_missing);
    if (group_ids.empty()) {
        std::optional<Group> guest = groups.by_level(k_level_guest);
        if (guest)
            group_ids.push_back(guest->id);
    }
    user.credential = password::hash(password);
    int64_t id = 0;
    UserWrite result = users.insert(user, id);
    if (result != UserWrite::ok) // lost a race with another registration of that name or email
        throw taken(result);
    groups.add_user(id, group_ids);
    return message(201, Code::user_registered, req, ctx);
}

Response handle_user_update(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    ProfileChange change;
    change.username = name_member(body, "username", FieldText::username_length, problems);
    change.nickname = name_member(body, "nickname", FieldText::nickname_length, problems);
    change.avatar = validate::optional_text(body, "avatar", 500, FieldText::avatar_length, problems);
    change.email = email_member(body, problems);
    problems.check();
    UserWrite result = UserStore(ctx.db).update_profile(ctx.user->id, change);
    if (result != UserWrite::ok)
        throw taken(result);
    return message(200, Code::user_updated, req, ctx);
}

Response handle_user_captcha(const Request &req, Ctx &ctx) {
    // The client calls this on every login page load and after every failed login, and shows no
    // captcha box for a null image. It sends no username: the address's own failures decide, and
    // those of every username the address has failed for, so that an address refused once for a
    // username under attack (400/10260) gets its image at the next call.
    LoginFailures failures;
    if (ctx.config.login_captcha == "after_failures") {
        std::string address = throttle_address(req.remote_addr, ctx.config);
        ThrottleStore throttle(ctx.db);
        failures.address = throttle.address_failures(address, ctx.config.login_failure_window);
        // An address without failures has failed for no username, and one with enough gets the
        // image anyway: only one between asks for its usernames' (a query of temporary tables).
        if (failures.address > 0 && failures.address < ctx.config.login_captcha_after)
            failures.username =
                throttle.busiest_username_failures(address, ctx.config.login_failure_window);
    }
    Json::Value out(Json::objectValue);
    out["tag"] = Json::nullValue;
    out["image"] = Json::nullValue;
    if (login_captcha_asked(failures, ctx.config)) {
        std::string code = captcha::new_code();
        int64_t now = now_seconds();
        out["tag"] = captcha::seal(code, captcha::derive_key(ctx.config.jwt_secret),
                                   captcha::random_bytes(captcha::k_nonce_size),
                                   now + ctx.config.login_captcha_ttl);
        out["image"] = "data:image/png;base64," + base64::encode_std(captcha::png(code));
        // Here, not at login, which holds its locks through the password hash; and after the
        // picture, so that the prune's range lock lasts only until the commit.
        CaptchaStore(ctx.db).prune(now - k_spent_grace);
    }
    Response res = Response::json(200, out);
    res.header("Cache-Control", "no-store");
    return res;
}

Response handle_user_permissions(const Request &, Ctx &ctx) {
    const Principal &user = *ctx.user;
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(user.id);
    out["nickname"] = nullable(user.nickname);
    out["avatar"] = avatar_url(user.avatar, ctx.config);
    out["admin"] = user.admin;
    out["email"] = nullable(user.email);
    out["permissions"] = user_permissions_json(PermissionStore(ctx.db).of_user(user.id));
    return Response::json(200, out);
}

Response handle_user_information(const Request &, Ctx &ctx) {
    const Principal &user = *ctx.user;
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(user.id);
    out["username"] = user.username;
    out["nickname"] = nullable(user.nickname);
    out["avatar"] = avatar_url(user.avatar, ctx.config);
    out["email"] = nullable(user.email);
    out["groups"] = groups_json(GroupStore(ctx.db).of_user(user.id));
    return Response::json(200, out);
}

Response handle_user_change_password(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    std::string old_password = validate::required_text(
        body, "old_password", k_max_login_password, FieldText::password_old_not_blank,
        FieldText::password_old_length, problems);
    std::string password = new_password(body, "new_password", problems);
    problems.check();
    // Guessing the current password here, with a stolen token, is guessing it at login: the same
    // counts, the same limits, the same captcha (its code in the body, its tag in the header).
    const std::string &username = ctx.user->username;
    CheckedFor who{username_throttle_name(username, ctx.config.jwt_secret),
                   account_throttle_name(ctx.user->id),
                   throttle_address(req.remote_addr, ctx.config)};
    ThrottleStore(ctx.db).gate(username, who.address);
    if (std::optional<Response> refused = before_password_check(who, body, req, ctx))
        return *refused;
    UserStore users(ctx.db);
    std::optional<LoginIdentity> identity = users.find_login(username);
    if (!identity || !password::verify(old_password, identity->credential))
        return fail_password(who, true, req, ctx, ApiError(400, Code::old_password_wrong));
    if (!users.set_password(ctx.user->id, password::hash(password)))
        throw ApiError(404, Code::user_not_found);
    return message(200, Code::password_changed, req, ctx);
}

} // namespace cms
