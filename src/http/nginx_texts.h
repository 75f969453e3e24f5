// The message table's texts of the errors nginx answers itself (nginx/cms-fcgi.conf, location
// /.cms-fcgi-error), written as the nginx include of `set` lines that cms-fcgi.conf reads.
#pragma once

#include <string>

#include "base/errors.h"

namespace cms {

// text as the inside of a JSON string (escaped as the app's responses escape it, and $ as \u0024,
// since nginx has no escape for $) inside a double-quoted nginx string: ready for
// `set $var "<this>";` and a `return` whose JSON body holds "$var".
std::string nginx_set_value(const std::string &text);

// One `set $cms_text_<code> "<text>";` line for each code nginx answers itself, with the text of
// messages; origin (the message file's path) is named in the opening comment.
std::string nginx_texts(const Messages &messages, const std::string &origin);

} // namespace cms
