// The Mesa side of the shim: an eu::Program becomes fs_insts in an fs_visitor (built the way
// Mesa's own pass unit tests build theirs), one of Mesa's passes runs, and the visitor's
// instructions are printed back in the `.eu` text form.
#pragma once

#include "eu.h"

#include <string>

namespace shim {

/// What running a pass gave.
struct Outcome {
   bool progress = false;
   std::string text;  // the resulting program, `.eu`
};

/// The pass names the shim runs (one per line, for --list and the docs).
std::string pass_names();

/// Builds `p` into a fresh fs_visitor for its target, runs `pass` and prints the result.
/// Throws eu::Refusal for a program or pass outside the mapping, and for a result the
/// printer cannot express (a reason starting "unprintable:"). A Mesa assertion aborts.
Outcome run(const eu::Program &p, const std::string &pass);

}  // namespace shim
