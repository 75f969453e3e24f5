// Behaviour log rows (lin_log): the matched route's template rendered for a user, written by
// dispatch (http/pipeline.cpp) inside the transaction of the change it records, so that both land or
// neither does.
#pragma once

#include <string>

namespace cms {

struct Ctx;
struct Principal;
struct Request;

// Writes the row of ctx.route for ctx.user with status; nothing when the route has no template.
void record_behaviour(const Request &req, Ctx &ctx, int status);

// The template with {user.*} placeholders replaced by HTML-escaped values (the Lin CMS web client
// renders log messages as HTML); unknown placeholders become empty.
std::string render_log_template(const std::string &tmpl, const Principal &user);

} // namespace cms
