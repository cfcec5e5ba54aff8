// The subset of the `.eu` text form (corpus/README.md) the shim understands: a scalar logical
// program as eufuzz prints it canonically. Parsing never guesses: anything outside the subset
// throws Refusal with the reason, so a program is translated exactly or not at all.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace eu {

/// Why a program is not translated (or a result not printed). The message is one line.
struct Refusal : std::runtime_error {
   explicit Refusal(const std::string &why) : std::runtime_error(why) {}
};

enum class Type { UB, B, UW, W, UD, D, UQ, Q, HF, F, DF, UV, V, VF };
const char *type_name(Type t);
unsigned type_size(Type t);

enum class File { Null, Vgrf, Attr, Uniform, Imm };

struct Operand {
   File file = File::Null;
   Type type = Type::UD;
   unsigned nr = 0;
   unsigned offset = 0;  // bytes
   unsigned stride = 1;  // elements (VGRF/ATTR)
   bool negate = false;
   bool abs = false;
   uint64_t bits = 0;    // immediates: the value's bits, zero-extended from the type's size
};

struct Inst {
   int line = 0;
   std::string op;        // mnemonic, e.g. "add", "fb_write_logical"
   bool predicated = false;
   bool pred_inverse = false;
   unsigned flag_subreg = 0;  // f0.0 = 0, f0.1 = 1, f1.0 = 2, f1.1 = 3
   std::string cmod;      // "", "z", "nz", "g", "ge", "l", "le", "o", "u"
   bool saturate = false;
   unsigned exec_size = 8;
   unsigned group = 0;
   bool nomask = false;
   bool eot = false;
   unsigned header_size = 0;
   bool has_dst = false;
   Operand dst;
   std::vector<Operand> srcs;
};

struct Program {
   std::string target;
   unsigned dispatch = 8;
   /// Header lines that describe inputs (threads, uniforms, attrs, packed_dispatch),
   /// echoed unchanged so the result takes the same inputs as the original.
   std::vector<std::string> input_header;
   unsigned uniforms = 0;
   std::vector<unsigned> attr_sizes;
   std::vector<unsigned> vgrf_sizes;
   std::vector<Inst> insts;
};

/// Parses the subset; throws Refusal (with `line N:` in front) for anything outside it.
Program parse(const std::string &text);

}  // namespace eu
