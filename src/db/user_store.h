// User storage: lin_user and lin_user_identity (USERNAME_PASSWORD). Live rows only; no HTTP here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

// The user a valid token belongs to, loaded once per request by authorize().
struct Principal {
    int64_t id = 0;
    std::string username;
    std::optional<std::string> nickname;
    std::optional<std::string> avatar;
    std::optional<std::string> email;
    int64_t credential_version = 0;
    bool admin = false; // member of the root-level group
};

// The password identity of a username, for login.
struct LoginIdentity {
    int64_t user_id = 0;
    int64_t identity_id = 0;
    std::string credential;
    int64_t credential_version = 0; // the user's, read with the credential
};

// A user as the admin list shows it (doc/lin-cms.md §4.8).
struct UserRow {
    int64_t id = 0;
    std::string username;
    std::optional<std::string> nickname;
    std::optional<std::string> avatar;
    std::optional<std::string> email;
};

// PUT /cms/user: absent members are left unchanged.
struct ProfileChange {
    std::optional<std::string> username;
    std::optional<std::string> nickname;
    std::optional<std::string> avatar;
    std::optional<std::string> email;
};

// The outcome of a write that the live unique keys on username and email guard.
enum class UserWrite { ok, username_taken, email_taken };

struct NewUser {
    std::string username;
    std::optional<std::string> email;
    std::string credential; // the password hash
};

class UserStore {
  public:
    explicit UserStore(db::Connection &db) : db_(db) {}

    // The live user with its admin flag (member of the live root-level group).
    std::optional<Principal> find_principal(int64_t id);
    // The live user's password identity by username.
    std::optional<LoginIdentity> find_login(const std::string &username);
    // The live user's credential version, with the user row locked until the transaction ends
    // (a password change waits); nullopt when the user is not live. Call inside a transaction.
    std::optional<int64_t> lock_credential_version(int64_t user_id);
    // Replaces one identity's hash with an equivalent one (re-hash on login) if it is still
    // old_credential, without touching the credential version.
    void rehash(int64_t identity_id, const std::string &old_credential,
                const std::string &credential);
    // Sets the hash of every password identity of the user and bumps its credential version,
    // which invalidates tokens issued before; false when the user is not live. Call inside a
    // transaction.
    bool set_password(int64_t user_id, const std::string &credential);
    bool username_taken(const std::string &username);
    bool email_taken(const std::string &email);
    // Inserts the user and its identity and sets id; the database's live unique keys decide
    // whether the username or email is taken. Call inside a transaction.
    UserWrite insert(const NewUser &user, int64_t &id);
    // A page of live users that are not in the root group, optionally only members of group_id;
    // total counts all matching users.
    std::vector<UserRow> page(std::optional<int64_t> group_id, int64_t page, int64_t count,
                              int64_t &total);
    // Applies the change to the live user (and its login identifier when the username changes).
    // Call inside a transaction.
    UserWrite update_profile(int64_t user_id, const ProfileChange &change);
    // Soft-deletes the user and its identities, removes its group links and bumps its credential
    // version; false when the user is not live. Call inside a transaction.
    bool remove(int64_t user_id);
    // Makes the user's groups exactly group_ids. Call inside a transaction.
    void set_groups(int64_t user_id, const std::vector<int64_t> &group_ids);

  private:
    db::Connection &db_;
};

} // namespace cms
