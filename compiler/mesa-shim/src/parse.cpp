// Reader for the canonical `.eu` subset (see eu.h). Written against corpus/README.md and
// compiler/src/text/print.rs: what the eufuzz printer writes is what this reads.

#include "eu.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace eu {

namespace {

struct TypeInfo {
   const char *name;
   Type type;
   unsigned size;
};

const TypeInfo TYPES[] = {
   {"UB", Type::UB, 1}, {"B", Type::B, 1},   {"UW", Type::UW, 2}, {"W", Type::W, 2},
   {"UD", Type::UD, 4}, {"D", Type::D, 4},   {"UQ", Type::UQ, 8}, {"Q", Type::Q, 8},
   {"HF", Type::HF, 2}, {"F", Type::F, 4},   {"DF", Type::DF, 8}, {"UV", Type::UV, 4},
   {"V", Type::V, 4},   {"VF", Type::VF, 4},
};

[[noreturn]] void refuse(const std::string &why) { throw Refusal(why); }

std::string trim(const std::string &s)
{
   size_t a = s.find_first_not_of(" \t\r");
   if (a == std::string::npos)
      return "";
   size_t b = s.find_last_not_of(" \t\r");
   return s.substr(a, b - a + 1);
}

bool starts_with(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }

unsigned parse_uint(const std::string &s, const std::string &what)
{
   if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return isdigit((unsigned char)c); }))
      refuse("expected a number for " + what + ", found '" + s + "'");
   return (unsigned)std::stoul(s);
}

Type parse_type(const std::string &s)
{
   for (const auto &t : TYPES)
      if (s == t.name)
         return t.type;
   refuse("unknown type '" + s + "'");
}

uint16_t float_to_half(float f)
{
   // Round-to-nearest-even f32 -> f16, only used for literals that eufuzz printed from a
   // half value (so they convert exactly).
   uint32_t x;
   memcpy(&x, &f, 4);
   uint32_t sign = (x >> 16) & 0x8000;
   int exp = (int)((x >> 23) & 0xff) - 127 + 15;
   uint32_t mant = x & 0x7fffff;
   if (((x >> 23) & 0xff) == 0xff)
      return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
   if (exp >= 31)
      return (uint16_t)(sign | 0x7c00);
   if (exp <= 0) {
      if (exp < -10)
         return (uint16_t)sign;
      mant |= 0x800000;
      unsigned shift = (unsigned)(14 - exp);
      uint32_t h = mant >> shift;
      uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
      if (rem > half || (rem == half && (h & 1)))
         h++;
      return (uint16_t)(sign | h);
   }
   uint32_t h = ((uint32_t)exp << 10) | (mant >> 13);
   uint32_t rem = mant & 0x1fff;
   if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
      h++;
   return (uint16_t)(sign | h);
}

/// One restricted float (sign, 3-bit exponent biased by 3, 4-bit mantissa) of a value the
/// eufuzz printer wrote from one, so it converts exactly; anything else is refused.
uint8_t float_to_vf(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   uint8_t sign = (uint8_t)((x >> 31) << 7);
   if ((x & 0x7fffffff) == 0)
      return sign;
   int exp = (int)((x >> 23) & 0xff) - 127 + 3;
   uint32_t mant = (x >> 19) & 0xf;
   // Exponent field 0 is 2^-3 except the encoding 0, which is zero.
   if (exp < 0 || exp > 7 || (x & 0x7ffff) != 0 || (exp == 0 && mant == 0))
      refuse("a VF component that is not a restricted float");
   return (uint8_t)(sign | (exp << 4) | mant);
}

/// `[a, b, c, d]`: four restricted floats, component 0 in the low byte.
uint64_t vf_bits(const std::string &lit)
{
   std::string inner = lit.substr(1, lit.size() - 2);
   std::stringstream ss(inner);
   std::string part;
   uint64_t bits = 0;
   unsigned k = 0;
   while (std::getline(ss, part, ',')) {
      if (k == 4)
         refuse("a VF literal with more than four components");
      char *end;
      float f = strtof(part.c_str(), &end);
      if (*end && !isspace((unsigned char)*end))
         refuse("bad VF component");
      bits |= (uint64_t)float_to_vf(f) << (8 * k++);
   }
   if (k != 4)
      refuse("a VF literal with fewer than four components");
   return bits;
}

/// The bits of an immediate literal of type `t` (decimal or 0x raw bits).
uint64_t imm_bits(const std::string &lit, Type t)
{
   if (starts_with(lit, "0x")) {
      char *end;
      uint64_t v = strtoull(lit.c_str() + 2, &end, 16);
      if (*end)
         refuse("bad hex immediate '" + lit + "'");
      return v;
   }
   if (lit.empty())
      refuse("an empty immediate");
   if (lit[0] == '[') {
      if (t != Type::VF)
         refuse("a vector literal on a type other than VF");
      return vf_bits(lit);
   }
   char *end;
   switch (t) {
   case Type::F: {
      float f = strtof(lit.c_str(), &end);
      if (*end)
         refuse("bad float immediate '" + lit + "'");
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
   }
   case Type::DF: {
      double d = strtod(lit.c_str(), &end);
      if (*end)
         refuse("bad double immediate '" + lit + "'");
      uint64_t b;
      memcpy(&b, &d, 8);
      return b;
   }
   case Type::HF: {
      float f = strtof(lit.c_str(), &end);
      if (*end)
         refuse("bad half immediate '" + lit + "'");
      return float_to_half(f);
   }
   default: {
      uint64_t v;
      if (lit[0] == '-')
         v = (uint64_t)strtoll(lit.c_str(), &end, 10);
      else
         v = strtoull(lit.c_str(), &end, 10);
      if (*end)
         refuse("bad integer immediate '" + lit + "'");
      unsigned bits = type_size(t) * 8;
      return bits >= 64 ? v : v & ((1ull << bits) - 1);
   }
   }
}

/// `+OFFSET` and `<STRIDE>` after a register name.
void offset_stride(const std::string &rest, Operand &o, bool stride_allowed)
{
   size_t i = 0;
   if (i < rest.size() && rest[i] == '+') {
      size_t j = i + 1;
      while (j < rest.size() && isdigit((unsigned char)rest[j]))
         j++;
      o.offset = parse_uint(rest.substr(i + 1, j - i - 1), "a byte offset");
      i = j;
   }
   if (i < rest.size() && rest[i] == '<') {
      if (!stride_allowed)
         refuse("a region on a uniform is not mapped");
      size_t j = rest.find('>', i);
      if (j == std::string::npos || j + 1 != rest.size())
         refuse("bad stride in '" + rest + "'");
      o.stride = parse_uint(rest.substr(i + 1, j - i - 1), "a stride");
      i = j + 1;
   }
   if (i != rest.size())
      refuse("'" + rest + "': Align16 components, sub-registers and regions are not mapped");
}

Operand parse_operand(std::string s)
{
   Operand o;
   s = trim(s);
   size_t colon = s.rfind(':');
   if (colon == std::string::npos)
      refuse("operand '" + s + "' has no type");
   std::string loc = s.substr(0, colon);
   std::string ty = s.substr(colon + 1);
   // `-(5:D)`: a negate modifier on an immediate.
   if (starts_with(s, "-(") && s.back() == ')') {
      Operand inner = parse_operand(s.substr(2, s.size() - 3));
      if (inner.file != File::Imm)
         refuse("'" + s + "' is not a negated immediate");
      inner.negate = true;
      return inner;
   }
   o.type = parse_type(ty);
   if (starts_with(loc, "-") && loc.size() > 1 && !isdigit((unsigned char)loc[1]) &&
       loc.compare(1, 3, "inf") != 0) {
      o.negate = true;
      loc = loc.substr(1);
   }
   if (starts_with(loc, "(abs)")) {
      o.abs = true;
      loc = loc.substr(5);
   }
   if (loc == "null") {
      o.file = File::Null;
      return o;
   }
   auto number_then = [&](size_t from, std::string &rest) {
      size_t j = from;
      while (j < loc.size() && isdigit((unsigned char)loc[j]))
         j++;
      if (j == from)
         refuse("operand '" + s + "' is not mapped");
      rest = loc.substr(j);
      return (unsigned)std::stoul(loc.substr(from, j - from));
   };
   std::string rest;
   if (starts_with(loc, "attr")) {
      o.file = File::Attr;
      o.nr = number_then(4, rest);
      offset_stride(rest, o, true);
   } else if (loc[0] == 'v' && loc.size() > 1 && isdigit((unsigned char)loc[1])) {
      o.file = File::Vgrf;
      o.nr = number_then(1, rest);
      offset_stride(rest, o, true);
   } else if (loc[0] == 'u' && loc.size() > 1 && isdigit((unsigned char)loc[1])) {
      o.file = File::Uniform;
      o.nr = number_then(1, rest);
      o.stride = 0;
      offset_stride(rest, o, false);
   } else if (isdigit((unsigned char)loc[0]) || loc[0] == '-' || loc == "inf" || loc == "[" ||
              loc[0] == '[') {
      if (o.abs)
         refuse("(abs) on an immediate is not mapped");
      o.file = File::Imm;
      o.bits = imm_bits(loc, o.type);
   } else {
      refuse("operand '" + s + "': fixed GRFs, ARFs and indirect operands are not mapped "
             "(the shim takes logical IR)");
   }
   if (o.negate && o.file == File::Imm)
      refuse("'" + s + "': negated immediate literal form not mapped");
   return o;
}

/// Splits operands at top-level commas (a VF literal `[a, b, c, d]` has commas inside).
std::vector<std::string> split_operands(const std::string &s)
{
   std::vector<std::string> out;
   int depth = 0;
   std::string cur;
   for (char c : s) {
      if (c == '[' || c == '(' || c == '<')
         depth++;
      if (c == ']' || c == ')' || c == '>')
         depth--;
      if (c == ',' && depth == 0) {
         out.push_back(trim(cur));
         cur.clear();
      } else {
         cur += c;
      }
   }
   if (!trim(cur).empty())
      out.push_back(trim(cur));
   return out;
}

unsigned flag_from(const std::string &reg, const std::string &sub)
{
   if (reg.size() != 2 || reg[0] != 'f' || (reg[1] != '0' && reg[1] != '1') ||
       (sub != "0" && sub != "1"))
      refuse("bad flag register '" + reg + "." + sub + "'");
   return (unsigned)(reg[1] - '0') * 2 + (unsigned)(sub[0] - '0');
}

const char *const CMODS[] = {"z", "nz", "g", "ge", "l", "le", "o", "u"};

Inst parse_inst(std::string s, int line)
{
   Inst in;
   in.line = line;
   if (s[0] == '(') {
      size_t close = s.find(')');
      if (close == std::string::npos)
         refuse("unclosed predicate");
      std::string p = s.substr(1, close - 1);
      in.predicated = true;
      in.pred_inverse = p[0] == '-';
      if (p[0] != '-' && p[0] != '+')
         refuse("bad predicate '" + p + "'");
      std::string f = p.substr(1);
      size_t dot1 = f.find('.');
      size_t dot2 = dot1 == std::string::npos ? std::string::npos : f.find('.', dot1 + 1);
      if (dot2 != std::string::npos)
         refuse("predicate kind '" + f.substr(dot2 + 1) + "' is not mapped (only the normal predicate)");
      if (dot1 == std::string::npos)
         refuse("bad predicate '" + p + "'");
      in.flag_subreg = flag_from(f.substr(0, dot1), f.substr(dot1 + 1));
      s = trim(s.substr(close + 1));
   }
   size_t paren = s.find('(');
   if (paren == std::string::npos)
      refuse("no execution size");
   std::string mnem = s.substr(0, paren);
   size_t close = s.find(')', paren);
   in.exec_size = parse_uint(s.substr(paren + 1, close - paren - 1), "the execution size");
   std::string rest = trim(s.substr(close + 1));
   // Mnemonic: opcode[.sat][.cmod[.fN.M]]
   std::vector<std::string> parts;
   std::stringstream ms(mnem);
   std::string part;
   while (std::getline(ms, part, '.'))
      parts.push_back(part);
   in.op = parts[0];
   for (size_t i = 1; i < parts.size(); i++) {
      if (parts[i] == "sat") {
         in.saturate = true;
      } else if (parts[i].size() == 2 && parts[i][0] == 'f' && i + 1 < parts.size()) {
         in.flag_subreg = flag_from(parts[i], parts[i + 1]);
         i++;
      } else {
         bool known = false;
         for (const char *c : CMODS)
            known |= parts[i] == c;
         if (!known)
            refuse("conditional modifier '" + parts[i] + "' is not mapped");
         in.cmod = parts[i];
      }
   }
   // Controls.
   size_t brace = rest.find('{');
   if (brace != std::string::npos) {
      size_t end = rest.find('}', brace);
      std::stringstream cs(rest.substr(brace + 1, end - brace - 1));
      std::string c;
      while (cs >> c) {
         if (c == "NoMask") {
            in.nomask = true;
         } else if (c == "EOT") {
            in.eot = true;
         } else if (starts_with(c, "header=")) {
            in.header_size = parse_uint(c.substr(7), "header=");
         } else if (starts_with(c, "group")) {
            in.group = parse_uint(c.substr(5), "group");
         } else if (c.size() == 2 && isdigit((unsigned char)c[0]) &&
                    (c[1] == 'Q' || c[1] == 'H' || c[1] == 'N')) {
            unsigned k = (unsigned)(c[0] - '1');
            in.group = k * in.exec_size;
         } else if (c.size() == 4 && c[0] == 'f' && c[2] == '.') {
            in.flag_subreg = flag_from(c.substr(0, 2), c.substr(3));
         } else {
            refuse("control " + c + " is not mapped (hardware-level control)");
         }
      }
      rest = trim(rest.substr(0, brace));
   }
   if (rest.find("desc(") != std::string::npos)
      refuse("'send' and message descriptors are hardware IR, not mapped");
   std::vector<std::string> ops = split_operands(rest);
   if (!ops.empty()) {
      in.has_dst = true;
      in.dst = parse_operand(ops[0]);
      for (size_t i = 1; i < ops.size(); i++)
         in.srcs.push_back(parse_operand(ops[i]));
   }
   return in;
}

}  // namespace

const char *type_name(Type t)
{
   for (const auto &i : TYPES)
      if (i.type == t)
         return i.name;
   return "?";
}

unsigned type_size(Type t)
{
   for (const auto &i : TYPES)
      if (i.type == t)
         return i.size;
   return 4;
}

Program parse(const std::string &text)
{
   Program p;
   std::stringstream in(text);
   std::string raw;
   int line = 0;
   bool inputs = false;
   while (std::getline(in, raw)) {
      line++;
      std::string s = raw;
      size_t hash = s.find('#');
      if (hash != std::string::npos)
         s = s.substr(0, hash);
      s = trim(s);
      if (s.empty())
         continue;
      try {
         if (inputs) {
            inputs = s != "END INPUTS";
            continue;
         }
         std::stringstream ws(s);
         std::string key;
         ws >> key;
         if (key == "INPUTS") {
            inputs = true;
         } else if (key == "eu") {
            std::string v;
            ws >> v;
            if (v != "1")
               refuse("text form version " + v + " (the shim reads version 1)");
         } else if (key == "target") {
            ws >> p.target;
         } else if (key == "stage") {
            std::string st;
            ws >> st;
            if (st != "fs")
               refuse("stage " + st + ": only fragment programs map onto fs_visitor");
         } else if (key == "dispatch") {
            std::string d;
            ws >> d;
            p.dispatch = parse_uint(d, "dispatch");
         } else if (key == "threads" || key == "packed_dispatch") {
            p.input_header.push_back(s);
         } else if (key == "uniforms") {
            std::string n;
            ws >> n;
            p.uniforms = parse_uint(n, "uniforms");
            p.input_header.push_back(s);
         } else if (key == "scratch") {
            refuse("scratch memory is not mapped");
         } else if (key == "attr" || key == "vgrf") {
            std::string name, size;
            ws >> name >> size;
            auto &list = key == "attr" ? p.attr_sizes : p.vgrf_sizes;
            std::string want = (key == "attr" ? "attr" : "v") + std::to_string(list.size());
            if (name != want)
               refuse(key + " " + name + " declared out of order");
            list.push_back(parse_uint(size, "a register count"));
            if (key == "attr")
               p.input_header.push_back(s);
         } else if (key == "START" || key == "END") {
            // Blocks are re-derived by Mesa's calculate_cfg from the instructions.
         } else {
            p.insts.push_back(parse_inst(s, line));
         }
      } catch (const Refusal &r) {
         throw Refusal("line " + std::to_string(line) + ": " + r.what());
      }
   }
   if (p.target.empty())
      refuse("no target line");
   return p;
}

}  // namespace eu
