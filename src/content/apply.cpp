// An apply, step by step: lock, read what was applied, plan, check the rows, run the DDL, store
// the merged declaration, unlock. The decisions are plan.cpp's; the SQL is the stores'.
#include "content/apply.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "base/json.h"
#include "content/catalog.h"
#include "content/declaration_store.h"
#include "content/plan.h"
#include "db/db.h"
#include "db/permission_store.h"

namespace cms::content {

namespace {

// An apply waits this long for another one to finish.
constexpr int k_lock_seconds = 30;

// Holds the named lock of an apply for its scope.
class ApplyLock {
  public:
    explicit ApplyLock(DeclarationStore &store) : store_(store) {
        if (!store_.lock(k_lock_seconds))
            throw std::runtime_error("another --setup-db is applying a content declaration "
                                     "(waited " +
                                     std::to_string(k_lock_seconds) +
                                     " s): run "
                                     "this one again when it is done");
    }
    // A lost connection took the lock with it.
    ~ApplyLock() { store_.unlock_if_connected(); }
    ApplyLock(const ApplyLock &) = delete;
    ApplyLock &operator=(const ApplyLock &) = delete;

  private:
    DeclarationStore &store_;
};

std::string joined_ids(const std::vector<int64_t> &ids) {
    std::string out;
    for (int64_t id : ids)
        out += (out.empty() ? "" : ", ") + std::to_string(id);
    return out;
}

} // namespace

Declaration check_file(const std::string &path, const Limits &limits) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read content declaration '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    std::vector<Problem> problems;
    std::optional<Json::Value> document = parse(text.str(), problems);
    Declaration declared;
    if (document)
        declared = read(*document, limits, false, problems);
    if (!problems.empty())
        throw std::runtime_error("content declaration '" + path + "' breaks " +
                                 std::to_string(problems.size()) + " rule(s):\n" +
                                 describe(problems));
    return declared;
}

namespace {

// One apply under the lock: the plan from what is applied to declared, its checks, its DDL
// (journaled: the target is kept as pending before the first statement), the permissions, then
// the target as the applied declaration.
void carry_out(db::Connection &db, DeclarationStore &store, const Declaration &declared,
               const Limits &limits, bool dry_run, std::FILE *out) {
    Declaration applied = load_applied(db, limits);
    Plan p = plan(applied, declared);
    if (!p.refusals.empty())
        throw std::runtime_error("refusing the content declaration; nothing was changed:\n" +
                                 describe(p.refusals));
    std::string broken;
    for (const Check &check : p.checks) {
        std::vector<int64_t> ids;
        int64_t count = store.breaking(check, ids);
        if (count > 0)
            broken += (broken.empty() ? "" : "\n") + check.what + ": " + std::to_string(count) +
                      (check.duplicates.empty() ? " row(s) break it, first ids "
                                                : " value(s) held by more than one row, first "
                                                  "ids ") +
                      joined_ids(ids);
    }
    if (!broken.empty())
        throw std::runtime_error("refusing the content declaration, rows break its rules; "
                                 "nothing was changed:\n" +
                                 broken);
    // The merged declaration must read back as this binary reads what is applied.
    std::vector<Problem> problems;
    std::string text = json::write(document(p.merged));
    std::optional<Json::Value> again = parse(text, problems);
    if (again)
        read(*again, limits, true, problems);
    if (!problems.empty())
        throw std::runtime_error("the merged content declaration breaks its rules (retired "
                                 "items count too); nothing was changed:\n" +
                                 describe(problems));
    if (!dry_run && !p.steps.empty())
        store.store_pending(text);
    for (const Step &step : p.steps) {
        if (step.chars > 0 && store.column_chars(step.table, step.column) >= step.chars)
            continue; // wide enough already: a max made smaller never narrowed it
        std::fprintf(out, "%s %s\n", dry_run ? "would" : "content:", step.what.c_str());
        if (dry_run)
            std::fprintf(out, "  %s;\n", step.sql.c_str());
        else
            store.run(step);
    }
    for (const std::string &note : p.notes)
        std::fprintf(out, "%s %s\n", dry_run ? "would note:" : "content:", note.c_str());
    if (dry_run) {
        std::fprintf(out, "plan: %zu step(s); nothing was changed\n", p.steps.size());
        return;
    }
    // The collections' permissions are the apply's to mount and unmount (a worker leaves their
    // modules alone): after the DDL, before the declaration, so that a retried apply does both.
    PermissionStore(db).register_modules(live_permissions(p.merged), labels(p.merged));
    // Nothing applied yet is the empty declaration: applying that one says nothing either.
    std::optional<std::string> before = store.applied();
    bool unchanged = before ? *before == text : p.merged.collections.empty();
    if (unchanged && p.steps.empty())
        return;
    store.store(text); // and the pending one is done

    std::fprintf(
        out, "content declaration applied: %zu collection(s) served, %zu step(s) run\n",
        static_cast<size_t>(std::count_if(p.merged.collections.begin(), p.merged.collections.end(),
                                          [](const Collection &c) { return !c.retired; })),
        p.steps.size());
}

} // namespace

void apply(db::Connection &db, const Declaration &declared, const Limits &limits, bool dry_run,
           std::FILE *out) {
    DeclarationStore store(db);
    ApplyLock lock(store);
    // An apply cut short (killed, or a statement refused) left its target pending: finished
    // first, so that the file is planned against a schema that is what the declaration says.
    if (std::optional<std::string> pending = store.pending()) {
        std::vector<Problem> problems;
        std::optional<Json::Value> document = parse(*pending, problems);
        Declaration target;
        if (document)
            target = read(*document, limits, true, problems);
        if (!problems.empty())
            throw std::runtime_error("the content declaration an earlier apply left pending "
                                     "breaks its rules:\n" +
                                     describe(problems));
        std::fprintf(out, "%s the apply that was cut short\n",
                     dry_run ? "would first finish" : "content: finishing");
        if (!dry_run)
            carry_out(db, store, target, limits, false, out);
    }
    carry_out(db, store, declared, limits, dry_run, out);
}

} // namespace cms::content
