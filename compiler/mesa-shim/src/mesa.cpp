// eu::Program <-> Mesa 22.3 fs_visitor. The mapping (and the Mesa files each row rests on)
// is written down in docs/mesa-shim.md; anything not in it is refused, never approximated.

#include "mesa.h"

#include "brw_cfg.h"
#include "brw_compiler.h"
#include "brw_dead_control_flow.h"
#include "brw_fs.h"
#include "brw_shader.h"
#include "compiler/nir/nir.h"
#include "dev/intel_device_info.h"
#include "util/ralloc.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>

using eu::Refusal;

namespace shim {

namespace {

[[noreturn]] void refuse(const std::string &why) { throw Refusal(why); }

/// eufuzz device name -> a PCI id of that platform (include/pci_ids/*.h), so the device
/// info is Mesa's own for a real part.
const std::map<std::string, int> DEVICES = {
   {"g45", 0x2E22}, {"ivb", 0x0162}, {"byt", 0x0F31}, {"hsw", 0x0412},
   {"bdw", 0x1616}, {"chv", 0x22B0}, {"skl", 0x1912}, {"bxt", 0x5A84},
   {"glk", 0x3184}, {"icl", 0x8A52}, {"tgl", 0x9A49}, {"dg2", 0x5690},
};

struct TypePair {
   eu::Type eu;
   brw_reg_type brw;
};

const TypePair TYPES[] = {
   {eu::Type::UB, BRW_REGISTER_TYPE_UB}, {eu::Type::B, BRW_REGISTER_TYPE_B},
   {eu::Type::UW, BRW_REGISTER_TYPE_UW}, {eu::Type::W, BRW_REGISTER_TYPE_W},
   {eu::Type::UD, BRW_REGISTER_TYPE_UD}, {eu::Type::D, BRW_REGISTER_TYPE_D},
   {eu::Type::UQ, BRW_REGISTER_TYPE_UQ}, {eu::Type::Q, BRW_REGISTER_TYPE_Q},
   {eu::Type::HF, BRW_REGISTER_TYPE_HF}, {eu::Type::F, BRW_REGISTER_TYPE_F},
   {eu::Type::DF, BRW_REGISTER_TYPE_DF}, {eu::Type::UV, BRW_REGISTER_TYPE_UV},
   {eu::Type::V, BRW_REGISTER_TYPE_V},   {eu::Type::VF, BRW_REGISTER_TYPE_VF},
};

brw_reg_type to_brw(eu::Type t)
{
   for (const auto &p : TYPES)
      if (p.eu == t)
         return p.brw;
   refuse(std::string("type ") + eu::type_name(t) + " is not mapped");
}

eu::Type from_brw(brw_reg_type t)
{
   for (const auto &p : TYPES)
      if (p.brw == t)
         return p.eu;
   refuse("unprintable: register type " + std::to_string((int)t));
}

/// Mnemonic <-> opcode and how many sources the `.eu` form has.
struct OpInfo {
   const char *name;
   enum opcode op;
   int srcs;  // -1: variable (load_payload)
};

const OpInfo OPS[] = {
   {"mov", BRW_OPCODE_MOV, 1},     {"sel", BRW_OPCODE_SEL, 2},     {"not", BRW_OPCODE_NOT, 1},
   {"and", BRW_OPCODE_AND, 2},     {"or", BRW_OPCODE_OR, 2},       {"xor", BRW_OPCODE_XOR, 2},
   {"shr", BRW_OPCODE_SHR, 2},     {"shl", BRW_OPCODE_SHL, 2},     {"asr", BRW_OPCODE_ASR, 2},
   {"rol", BRW_OPCODE_ROL, 2},     {"ror", BRW_OPCODE_ROR, 2},     {"cmp", BRW_OPCODE_CMP, 2},
   {"cmpn", BRW_OPCODE_CMPN, 2},   {"add", BRW_OPCODE_ADD, 2},     {"avg", BRW_OPCODE_AVG, 2},
   {"mul", BRW_OPCODE_MUL, 2},     {"mad", BRW_OPCODE_MAD, 3},     {"lrp", BRW_OPCODE_LRP, 3},
   {"frc", BRW_OPCODE_FRC, 1},     {"rndu", BRW_OPCODE_RNDU, 1},   {"rndd", BRW_OPCODE_RNDD, 1},
   {"rnde", BRW_OPCODE_RNDE, 1},   {"rndz", BRW_OPCODE_RNDZ, 1},   {"bfrev", BRW_OPCODE_BFREV, 1},
   {"bfe", BRW_OPCODE_BFE, 3},     {"bfi1", BRW_OPCODE_BFI1, 2},   {"bfi2", BRW_OPCODE_BFI2, 3},
   {"fbh", BRW_OPCODE_FBH, 1},     {"fbl", BRW_OPCODE_FBL, 1},     {"cbit", BRW_OPCODE_CBIT, 1},
   {"lzd", BRW_OPCODE_LZD, 1},
   {"rcp", SHADER_OPCODE_RCP, 1},  {"rsq", SHADER_OPCODE_RSQ, 1},  {"sqrt", SHADER_OPCODE_SQRT, 1},
   {"exp2", SHADER_OPCODE_EXP2, 1}, {"log2", SHADER_OPCODE_LOG2, 1},
   {"sin", SHADER_OPCODE_SIN, 1},  {"cos", SHADER_OPCODE_COS, 1},  {"pow", SHADER_OPCODE_POW, 2},
   {"int_quot", SHADER_OPCODE_INT_QUOTIENT, 2}, {"int_rem", SHADER_OPCODE_INT_REMAINDER, 2},
   {"mulh", SHADER_OPCODE_MULH, 2}, {"load_payload", SHADER_OPCODE_LOAD_PAYLOAD, -1},
   {"if", BRW_OPCODE_IF, 0},       {"else", BRW_OPCODE_ELSE, 0},   {"endif", BRW_OPCODE_ENDIF, 0},
   {"do", BRW_OPCODE_DO, 0},       {"while", BRW_OPCODE_WHILE, 0}, {"break", BRW_OPCODE_BREAK, 0},
   {"cont", BRW_OPCODE_CONTINUE, 0},
   // Logical messages: operand lists differ between the two forms (see build_message).
   {"fb_write_logical", FS_OPCODE_FB_WRITE_LOGICAL, 3},
   {"untyped_read_logical", SHADER_OPCODE_UNTYPED_SURFACE_READ_LOGICAL, 3},
   {"untyped_write_logical", SHADER_OPCODE_UNTYPED_SURFACE_WRITE_LOGICAL, 4},
};

const OpInfo *op_by_name(const std::string &n)
{
   for (const auto &o : OPS)
      if (n == o.name)
         return &o;
   return nullptr;
}

const OpInfo *op_by_opcode(enum opcode op)
{
   for (const auto &o : OPS)
      if (o.op == op)
         return &o;
   return nullptr;
}

const char *const CMOD_NAMES[] = {"", "z", "nz", "g", "ge", "l", "le", "r", "o", "u"};

brw_conditional_mod cmod_from(const std::string &c)
{
   for (unsigned i = 1; i < sizeof(CMOD_NAMES) / sizeof(CMOD_NAMES[0]); i++)
      if (c == CMOD_NAMES[i])
         return (brw_conditional_mod)i;
   return BRW_CONDITIONAL_NONE;
}

bool is_control_flow(enum opcode op)
{
   switch (op) {
   case BRW_OPCODE_IF: case BRW_OPCODE_ELSE: case BRW_OPCODE_ENDIF: case BRW_OPCODE_DO:
   case BRW_OPCODE_WHILE: case BRW_OPCODE_BREAK: case BRW_OPCODE_CONTINUE:
      return true;
   default:
      return false;
   }
}

/// Mesa's immediates: 16-bit values are replicated into both halves (brw_imm_w/uw in
/// brw_reg.h); the shim does the same so Mesa's passes see what its own builder makes.
fs_reg imm(const eu::Operand &o)
{
   switch (o.type) {
   case eu::Type::UB: case eu::Type::B:
      refuse("byte immediates do not exist in Mesa's IR (brw_reg.h has no brw_imm_b)");
   case eu::Type::UV: case eu::Type::V: case eu::Type::VF: {
      // Packed vectors: the 32 bits as they are (brw_imm_v/uv/vf in brw_reg.h).
      struct brw_reg r = brw_imm_reg(o.type == eu::Type::UV ? BRW_REGISTER_TYPE_UV
                                     : o.type == eu::Type::V ? BRW_REGISTER_TYPE_V
                                                             : BRW_REGISTER_TYPE_VF);
      r.ud = (uint32_t)o.bits;
      fs_reg f(r);
      f.negate = o.negate;
      return f;
   }
   default:
      break;
   }
   struct brw_reg r = brw_imm_reg(to_brw(o.type));
   unsigned size = eu::type_size(o.type);
   if (size == 2)
      r.ud = (uint32_t)(o.bits & 0xffff) | (uint32_t)(o.bits & 0xffff) << 16;
   else if (size == 4)
      r.ud = (uint32_t)o.bits;
   else
      r.u64 = o.bits;
   fs_reg f(r);
   f.negate = o.negate;
   return f;
}

fs_reg operand(const eu::Operand &o, const eu::Program &p, bool dst)
{
   fs_reg r;
   switch (o.file) {
   case eu::File::Null:
      r = fs_reg(retype(brw_null_reg(), to_brw(o.type)));
      break;
   case eu::File::Imm:
      if (dst)
         refuse("an immediate destination");
      return imm(o);
   case eu::File::Vgrf:
   case eu::File::Attr: {
      const bool attr = o.file == eu::File::Attr;
      if (attr && dst)
         refuse("an attribute destination");
      const size_t declared = attr ? p.attr_sizes.size() : p.vgrf_sizes.size();
      if (o.nr >= declared)
         refuse((attr ? "attr" : "v") + std::to_string(o.nr) + " is not declared");
      r = fs_reg(attr ? ATTR : VGRF, o.nr, to_brw(o.type));
      r.offset = o.offset;
      r.stride = o.stride;
      break;
   }
   case eu::File::Uniform:
      if (dst)
         refuse("a uniform destination");
      if (o.nr >= p.uniforms)
         refuse("u" + std::to_string(o.nr) + " is beyond the declared uniforms");
      // eufuzz numbers uniforms in dwords and adds a byte offset; Mesa's UNIFORM file
      // does the same (nr in 32-bit slots, offset in bytes; brw_fs.cpp, assign_constant_locations).
      r = fs_reg(UNIFORM, o.nr, to_brw(o.type));
      r.offset = o.offset;
      break;
   }
   r.negate = o.negate;
   // (abs) on an unsigned source is the identity (the value is never negative), and
   // Mesa's front end never writes it: its immediate folding asserts it never sees one
   // (brw_shader.cpp, brw_abs_immediate). So it is dropped, which changes no value.
   bool unsigned_type = o.type == eu::Type::UB || o.type == eu::Type::UW ||
                        o.type == eu::Type::UD || o.type == eu::Type::UQ;
   r.abs = o.abs && !unsigned_type;
   return r;
}

fs_reg imm_param(const eu::Operand &o, const char *what)
{
   if (o.file != eu::File::Imm || o.type != eu::Type::UD || o.negate)
      refuse(std::string(what) + " must be a :UD immediate");
   return brw_imm_ud((uint32_t)o.bits);
}

/// One `.eu` instruction as an fs_inst (not yet in the list).
fs_inst *build_inst(void *ctx, const eu::Program &p, const eu::Inst &in)
{
   const OpInfo *info = op_by_name(in.op);
   if (!info)
      refuse("opcode " + in.op + " is not mapped");
   if (info->srcs >= 0 && (int)in.srcs.size() != info->srcs)
      refuse("'" + in.op + "' with " + std::to_string(in.srcs.size()) + " sources");
   fs_reg dst = in.has_dst ? operand(in.dst, p, true) : fs_reg(retype(brw_null_reg(), BRW_REGISTER_TYPE_UD));
   fs_inst *inst;
   switch (info->op) {
   case FS_OPCODE_FB_WRITE_LOGICAL: {
      // .eu: null, COLOR, COMPONENTS, TARGET. Mesa: the FB_WRITE_LOGICAL_SRC_* slots
      // (brw_eu_defines.h), the target in fs_inst::target.
      fs_reg srcs[FB_WRITE_LOGICAL_NUM_SRCS];
      srcs[FB_WRITE_LOGICAL_SRC_COLOR0] = operand(in.srcs[0], p, false);
      srcs[FB_WRITE_LOGICAL_SRC_COMPONENTS] = imm_param(in.srcs[1], "fb_write components");
      inst = new (ctx) fs_inst(info->op, in.exec_size, dst, srcs, FB_WRITE_LOGICAL_NUM_SRCS);
      inst->target = imm_param(in.srcs[2], "fb_write target").ud;
      inst->last_rt = in.eot;
      break;
   }
   case SHADER_OPCODE_UNTYPED_SURFACE_READ_LOGICAL:
   case SHADER_OPCODE_UNTYPED_SURFACE_WRITE_LOGICAL: {
      // .eu read: DST, ADDR, SURFACE, COMPONENTS; write: null, ADDR, DATA, SURFACE,
      // COMPONENTS. Mesa: SURFACE_LOGICAL_SRC_* (brw_eu_defines.h), as brw_fs_nir.cpp
      // fills them for nir_intrinsic_load_ssbo/store_ssbo.
      bool write = info->op == SHADER_OPCODE_UNTYPED_SURFACE_WRITE_LOGICAL;
      fs_reg srcs[SURFACE_LOGICAL_NUM_SRCS];
      srcs[SURFACE_LOGICAL_SRC_ADDRESS] = operand(in.srcs[0], p, false);
      if (write)
         srcs[SURFACE_LOGICAL_SRC_DATA] = operand(in.srcs[1], p, false);
      srcs[SURFACE_LOGICAL_SRC_SURFACE] = imm_param(in.srcs[write ? 2 : 1], "surface");
      srcs[SURFACE_LOGICAL_SRC_IMM_DIMS] = brw_imm_ud(1);
      fs_reg comps = imm_param(in.srcs[write ? 3 : 2], "components");
      srcs[SURFACE_LOGICAL_SRC_IMM_ARG] = comps;
      srcs[SURFACE_LOGICAL_SRC_ALLOW_SAMPLE_MASK] = brw_imm_ud(1);
      inst = new (ctx) fs_inst(info->op, in.exec_size, dst, srcs, SURFACE_LOGICAL_NUM_SRCS);
      if (!write)
         inst->size_written = comps.ud * in.exec_size * 4;
      break;
   }
   case SHADER_OPCODE_LOAD_PAYLOAD: {
      // eufuzz's LOAD_PAYLOAD places each non-header source at the destination type's
      // size per channel; Mesa's (brw_fs.cpp, lower_load_payload) at the source's. They
      // agree when the sizes are equal, so other programs are refused.
      std::vector<fs_reg> srcs;
      unsigned size = in.header_size * REG_SIZE;
      for (size_t i = 0; i < in.srcs.size(); i++) {
         const eu::Operand &s = in.srcs[i];
         if (i >= in.header_size && s.file != eu::File::Null &&
             eu::type_size(s.type) != eu::type_size(in.dst.type))
            refuse("load_payload source of a size other than the destination's");
         if (s.file == eu::File::Null)
            srcs.push_back(fs_reg());
         else
            srcs.push_back(operand(s, p, false));
         if (i >= in.header_size)
            size += in.exec_size * eu::type_size(in.dst.type);
      }
      if (in.header_size > in.srcs.size())
         refuse("load_payload header larger than its sources");
      inst = new (ctx) fs_inst(info->op, in.exec_size, dst, srcs.data(), srcs.size());
      inst->header_size = in.header_size;
      inst->size_written = size;
      break;
   }
   default: {
      fs_reg srcs[3];
      for (size_t i = 0; i < in.srcs.size(); i++)
         srcs[i] = operand(in.srcs[i], p, false);
      inst = new (ctx) fs_inst(info->op, in.exec_size, dst, srcs, in.srcs.size());
      break;
   }
   }
   if (in.header_size && info->op != SHADER_OPCODE_LOAD_PAYLOAD)
      refuse("header= on '" + in.op + "'");
   inst->group = in.group;
   inst->force_writemask_all = in.nomask;
   inst->eot = in.eot;
   inst->saturate = in.saturate;
   inst->conditional_mod = cmod_from(in.cmod);
   if (!in.cmod.empty() && inst->conditional_mod == BRW_CONDITIONAL_NONE)
      refuse("conditional modifier ." + in.cmod);
   inst->predicate = in.predicated ? BRW_PREDICATE_NORMAL : BRW_PREDICATE_NONE;
   inst->predicate_inverse = in.pred_inverse;
   inst->flag_subreg = in.flag_subreg;
   return inst;
}

/// Mesa's liveness (brw_fs_live_variables.cpp) takes an unpredicated full write inside
/// control flow as defining every channel, so a NoMask instruction there that reads the
/// channels the control flow disabled reads values Mesa considers dead. Mesa's front end
/// only does that where the API leaves the value undefined; eufuzz's IR gives it the
/// hardware meaning (the old value). Such programs are outside the shared contract
/// (docs/mesa-shim.md, "model vs Mesa", item 2).
void refuse_nomask_reads_in_control_flow(const eu::Program &p)
{
   std::vector<bool> written_masked(p.vgrf_sizes.size(), false);
   for (const auto &in : p.insts)
      if (in.has_dst && in.dst.file == eu::File::Vgrf && !in.nomask && in.dst.nr < written_masked.size())
         written_masked[in.dst.nr] = true;
   int depth = 0;
   for (const auto &in : p.insts) {
      if (in.op == "if" || in.op == "do")
         depth++;
      else if (in.op == "endif" || in.op == "while")
         depth--;
      if (depth == 0 || !in.nomask)
         continue;
      for (const auto &o : in.srcs)
         if (o.file == eu::File::Vgrf && o.nr < written_masked.size() && written_masked[o.nr])
            refuse("line " + std::to_string(in.line) +
                   ": a NoMask read inside control flow of a VGRF written without NoMask");
   }
}

/// A visitor as Mesa's pass tests make one (test_fs_cmod_propagation.cpp's SetUp), but
/// for a real device and the program's dispatch width.
class shim_visitor : public fs_visitor {
public:
   shim_visitor(const brw_compiler *compiler, void *ctx, const brw_base_prog_key *key,
                struct brw_wm_prog_data *prog_data, nir_shader *shader, unsigned width)
      : fs_visitor(compiler, NULL, ctx, key, &prog_data->base, shader, width, false) {}
};

// ---- printing back ---------------------------------------------------------------------

std::string hex(uint64_t v)
{
   std::ostringstream s;
   s << "0x" << std::hex << v;
   return s.str();
}

std::string print_reg(const fs_reg &r)
{
   std::string s;
   if (r.file == IMM) {
      eu::Type t = from_brw(r.type);
      unsigned size = eu::type_size(t);
      uint64_t bits = size == 8 ? r.u64 : size == 4 ? r.ud : (r.ud & 0xffff);
      if (size == 2 && (r.ud >> 16) != (r.ud & 0xffff))
         refuse("unprintable: a 16-bit immediate whose halves differ");
      if (r.abs)
         refuse("unprintable: (abs) on an immediate");
      std::string lit = hex(bits) + ":" + eu::type_name(t);
      return r.negate ? "-(" + lit + ")" : lit;
   }
   if (r.negate)
      s += "-";
   if (r.abs)
      s += "(abs)";
   auto offset_stride = [&](bool stride) {
      if (r.offset)
         s += "+" + std::to_string(r.offset);
      if (stride && r.stride != 1)
         s += "<" + std::to_string(r.stride) + ">";
   };
   switch (r.file) {
   case BAD_FILE:
      s += "null";
      break;
   case ARF:
      if (r.nr != BRW_ARF_NULL)
         refuse("unprintable: an architecture register other than null");
      s += "null";
      break;
   case VGRF:
      s += "v" + std::to_string(r.nr);
      offset_stride(true);
      break;
   case ATTR:
      s += "attr" + std::to_string(r.nr);
      offset_stride(true);
      break;
   case UNIFORM:
      if (r.stride != 0)
         refuse("unprintable: a uniform with a non-zero stride");
      s += "u" + std::to_string(r.nr);
      offset_stride(false);
      break;
   default:
      refuse("unprintable: register file " + std::to_string((int)r.file) +
             " (fixed GRF or MRF: not logical IR)");
   }
   return s + ":" + eu::type_name(from_brw(r.type));
}

std::string group_name(unsigned exec, unsigned group)
{
   if ((exec == 4 || exec == 8 || exec == 16) && group % exec == 0) {
      char letter = exec == 4 ? 'N' : exec == 8 ? 'Q' : 'H';
      return std::to_string(group / exec + 1) + letter;
   }
   return "group" + std::to_string(group);
}

std::string flag_name(unsigned sub)
{
   return "f" + std::to_string(sub / 2) + "." + std::to_string(sub % 2);
}

bool writes_flag(const fs_inst *inst)
{
   return inst->conditional_mod != BRW_CONDITIONAL_NONE && inst->opcode != BRW_OPCODE_SEL;
}

void expect_bad(const fs_inst *inst, unsigned from, unsigned to, const char *why)
{
   for (unsigned i = from; i < to; i++)
      if (inst->src[i].file != BAD_FILE)
         refuse(std::string("unprintable: ") + why);
}

std::string print_inst(const fs_inst *inst)
{
   const OpInfo *info = op_by_opcode(inst->opcode);
   if (!info)
      refuse("unprintable: Mesa opcode " + std::to_string((int)inst->opcode));
   std::string s;
   if (inst->predicate != BRW_PREDICATE_NONE) {
      if (inst->predicate != BRW_PREDICATE_NORMAL)
         refuse("unprintable: a predicate other than the normal one");
      s += std::string("(") + (inst->predicate_inverse ? "-" : "+") + flag_name(inst->flag_subreg) + ") ";
   }
   s += info->name;
   if (inst->saturate)
      s += ".sat";
   bool flag_in_mnemonic = inst->predicate == BRW_PREDICATE_NONE && writes_flag(inst);
   if (inst->conditional_mod != BRW_CONDITIONAL_NONE) {
      s += std::string(".") + CMOD_NAMES[inst->conditional_mod];
      if (flag_in_mnemonic)
         s += "." + flag_name(inst->flag_subreg);
   }
   s += "(" + std::to_string(inst->exec_size) + ")";
   std::vector<std::string> ops;
   switch (inst->opcode) {
   case FS_OPCODE_FB_WRITE_LOGICAL:
      expect_bad(inst, FB_WRITE_LOGICAL_SRC_COLOR1, FB_WRITE_LOGICAL_SRC_COMPONENTS,
                 "fb_write with sources other than colour 0");
      if (inst->src[FB_WRITE_LOGICAL_SRC_COMPONENTS].file != IMM)
         refuse("unprintable: fb_write components");
      ops = {print_reg(inst->dst), print_reg(inst->src[FB_WRITE_LOGICAL_SRC_COLOR0]),
             std::to_string(inst->src[FB_WRITE_LOGICAL_SRC_COMPONENTS].ud) + ":UD",
             std::to_string(inst->target) + ":UD"};
      break;
   case SHADER_OPCODE_UNTYPED_SURFACE_READ_LOGICAL:
   case SHADER_OPCODE_UNTYPED_SURFACE_WRITE_LOGICAL: {
      bool write = inst->opcode == SHADER_OPCODE_UNTYPED_SURFACE_WRITE_LOGICAL;
      const fs_reg &surf = inst->src[SURFACE_LOGICAL_SRC_SURFACE];
      const fs_reg &arg = inst->src[SURFACE_LOGICAL_SRC_IMM_ARG];
      if (surf.file != IMM || arg.file != IMM ||
          inst->src[SURFACE_LOGICAL_SRC_SURFACE_HANDLE].file != BAD_FILE)
         refuse("unprintable: a surface message with a non-immediate surface");
      ops = {print_reg(inst->dst), print_reg(inst->src[SURFACE_LOGICAL_SRC_ADDRESS])};
      if (write)
         ops.push_back(print_reg(inst->src[SURFACE_LOGICAL_SRC_DATA]));
      ops.push_back(std::to_string(surf.ud) + ":UD");
      ops.push_back(std::to_string(arg.ud) + ":UD");
      break;
   }
   default:
      if (!is_control_flow(inst->opcode) || inst->sources) {
         // A pass that turns an instruction into a MOV may leave its other sources as
         // BAD_FILE without resizing (brw_fs.cpp, opt_algebraic); those are not operands.
         unsigned n = inst->sources;
         if (info->srcs >= 0 && n > (unsigned)info->srcs) {
            expect_bad(inst, info->srcs, n, "an instruction with more sources than its opcode takes");
            n = info->srcs;
         }
         ops.push_back(print_reg(inst->dst));
         for (unsigned i = 0; i < n; i++)
            ops.push_back(print_reg(inst->src[i]));
      }
      if (inst->opcode == SHADER_OPCODE_LOAD_PAYLOAD) {
         // Mesa's size per source is the source's; refuse what eufuzz would read otherwise.
         for (unsigned i = inst->header_size; i < inst->sources; i++)
            if (inst->src[i].file != BAD_FILE && type_sz(inst->src[i].type) != type_sz(inst->dst.type))
               refuse("unprintable: load_payload source size differs from the destination's");
      }
      break;
   }
   if (is_control_flow(inst->opcode) && (inst->dst.file != ARF && inst->dst.file != BAD_FILE))
      refuse("unprintable: control flow with a destination");
   if (!ops.empty()) {
      s += " ";
      for (size_t i = 0; i < ops.size(); i++)
         s += (i ? ", " : "") + ops[i];
   }
   std::vector<std::string> controls;
   if (inst->group)
      controls.push_back(group_name(inst->exec_size, inst->group));
   if (inst->force_writemask_all)
      controls.push_back("NoMask");
   if (inst->eot)
      controls.push_back("EOT");
   bool flag_shown = inst->predicate != BRW_PREDICATE_NONE || flag_in_mnemonic;
   if (!flag_shown && inst->flag_subreg)
      controls.push_back(flag_name(inst->flag_subreg));
   if (inst->header_size)
      controls.push_back("header=" + std::to_string(inst->header_size));
   if (!controls.empty()) {
      s += " {";
      for (const auto &c : controls)
         s += " " + c;
      s += " }";
   }
   return s;
}

std::string print_program(const eu::Program &p, shim_visitor &v)
{
   std::ostringstream out;
   out << "eu 1\ntarget " << p.target << "\ndispatch " << p.dispatch << "\n";
   for (const auto &h : p.input_header)
      if (h.rfind("attr", 0) != 0)
         out << h << "\n";
   for (const auto &h : p.input_header)
      if (h.rfind("attr", 0) == 0)
         out << h << "\n";
   for (unsigned i = 0; i < v.alloc.count; i++)
      out << "vgrf v" << i << " " << v.alloc.sizes[i] << "\n";
   foreach_block(block, v.cfg) {
      out << "\nSTART B" << block->num << "\n";
      foreach_inst_in_block(fs_inst, inst, block)
         out << "    " << print_inst(inst) << "\n";
      out << "END B" << block->num << "\n";
   }
   return out.str();
}

// ---- passes ------------------------------------------------------------------------------

using Pass = std::function<bool(fs_visitor &)>;

/// Where a budgeted run of the loop stopped: the passes run, the last one's name, and
/// whether the loop ran to its end within the budget.
struct LoopTrace {
   unsigned steps = 0;
   std::string last;
   bool finished = false;
};

/// Thrown when a budgeted loop has run its number of passes.
struct BudgetSpent {};

/// Mesa 22.3's optimisation loop (brw_fs.cpp, fs_visitor::optimize) up to the end of its
/// do/while, without the MRF pass of Gen < 7 output (compute_to_mrf writes MRFs, which the
/// `.eu` form has no name for) and without assign_constant_locations (which needs NIR).
/// With a `budget`, it stops after that many pass runs, so that eufuzz can find the first
/// pass whose output goes wrong (`opt_loop@N`, see triage/src/mesa/check.rs).
bool opt_loop_budgeted(fs_visitor &v, int budget, LoopTrace &trace)
{
   bool any = false;
   auto step = [&](const char *name, const std::function<bool()> &pass) {
      if (budget >= 0 && trace.steps == (unsigned)budget)
         throw BudgetSpent();
      trace.steps++;
      trace.last = name;
      // On stderr, so that a crash in this pass is attributed to it by eufuzz.
      if (budget >= 0)
         fprintf(stderr, "eufuzz-mesa-shim: pass %s\n", name);
      bool progress = pass();
      v.validate();
      any |= progress;
      return progress;
   };
   step("split_virtual_grfs", [&] { return v.split_virtual_grfs(); });
   step("dead_code_eliminate", [&] { return v.dead_code_eliminate(); });
   step("remove_extra_rounding_modes", [&] { return v.remove_extra_rounding_modes(); });
   bool progress;
   int iterations = 0;
   do {
      progress = false;
      progress |= step("remove_duplicate_mrf_writes", [&] { return v.remove_duplicate_mrf_writes(); });
      progress |= step("opt_algebraic", [&] { return v.opt_algebraic(); });
      progress |= step("opt_cse", [&] { return v.opt_cse(); });
      progress |= step("opt_copy_propagation", [&] { return v.opt_copy_propagation(); });
      progress |= step("opt_predicated_break", [&] { return opt_predicated_break(&v); });
      progress |= step("opt_cmod_propagation", [&] { return v.opt_cmod_propagation(); });
      progress |= step("dead_code_eliminate", [&] { return v.dead_code_eliminate(); });
      progress |= step("opt_peephole_sel", [&] { return v.opt_peephole_sel(); });
      progress |= step("dead_control_flow_eliminate", [&] { return dead_control_flow_eliminate(&v); });
      progress |= step("opt_register_renaming", [&] { return v.opt_register_renaming(); });
      progress |= step("opt_saturate_propagation", [&] { return v.opt_saturate_propagation(); });
      progress |= step("register_coalesce", [&] { return v.register_coalesce(); });
      progress |= step("eliminate_find_live_channel", [&] { return v.eliminate_find_live_channel(); });
      progress |= step("compact_virtual_grfs", [&] { return v.compact_virtual_grfs(); });
      if (++iterations > 100)
         refuse("opt_loop did not converge in 100 iterations");
   } while (progress);
   trace.finished = true;
   return any;
}

bool opt_loop(fs_visitor &v)
{
   LoopTrace trace;
   return opt_loop_budgeted(v, -1, trace);
}

const std::vector<std::pair<std::string, Pass>> &passes()
{
   static const std::vector<std::pair<std::string, Pass>> list = {
      {"opt_algebraic", [](fs_visitor &v) { return v.opt_algebraic(); }},
      {"opt_cse", [](fs_visitor &v) { return v.opt_cse(); }},
      {"opt_copy_propagation", [](fs_visitor &v) { return v.opt_copy_propagation(); }},
      {"opt_predicated_break", [](fs_visitor &v) { return opt_predicated_break(&v); }},
      {"opt_cmod_propagation", [](fs_visitor &v) { return v.opt_cmod_propagation(); }},
      {"dead_code_eliminate", [](fs_visitor &v) { return v.dead_code_eliminate(); }},
      {"opt_peephole_sel", [](fs_visitor &v) { return v.opt_peephole_sel(); }},
      {"dead_control_flow_eliminate", [](fs_visitor &v) { return dead_control_flow_eliminate(&v); }},
      {"opt_register_renaming", [](fs_visitor &v) { return v.opt_register_renaming(); }},
      {"opt_saturate_propagation", [](fs_visitor &v) { return v.opt_saturate_propagation(); }},
      {"register_coalesce", [](fs_visitor &v) { return v.register_coalesce(); }},
      {"split_virtual_grfs", [](fs_visitor &v) { return v.split_virtual_grfs(); }},
      {"compact_virtual_grfs", [](fs_visitor &v) { return v.compact_virtual_grfs(); }},
      {"opt_loop", opt_loop},
   };
   return list;
}

}  // namespace

std::string pass_names()
{
   std::string s;
   for (const auto &p : passes())
      s += p.first + "\n";
   return s;
}

Outcome run(const eu::Program &p, const std::string &pass_name)
{
   // `opt_loop@N`: the loop, stopped after N pass runs.
   int budget = -1;
   const std::string budgeted = "opt_loop@";
   if (pass_name.rfind(budgeted, 0) == 0) {
      const std::string n = pass_name.substr(budgeted.size());
      if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 6)
         refuse("bad step count in " + pass_name);
      budget = std::stoi(n);
   }
   const Pass *pass = nullptr;
   for (const auto &q : passes())
      if (q.first == pass_name)
         pass = &q.second;
   if (!pass && budget < 0)
      refuse("unknown pass " + pass_name);
   auto dev = DEVICES.find(p.target);
   if (dev == DEVICES.end())
      refuse("target " + p.target + " has no Mesa device");
   if (p.dispatch != 8 && p.dispatch != 16 && p.dispatch != 32)
      refuse("dispatch " + std::to_string(p.dispatch));

   void *ctx = ralloc_context(NULL);
   struct Cleanup {
      void *ctx;
      shim_visitor *v = nullptr;
      ~Cleanup() { delete v; ralloc_free(ctx); }
   } cleanup{ctx};

   struct intel_device_info *devinfo = rzalloc(ctx, struct intel_device_info);
   if (!intel_get_device_info_from_pci_id(dev->second, devinfo))
      refuse("Mesa has no device info for " + p.target);
   // Mesa's NIR lowering removes 64-bit arithmetic on devices without it, so its backend
   // passes assume they never see such types there (brw_fs.cpp, opt_algebraic's 64-bit
   // MOV split asserts it). Such programs are outside the mapping.
   for (unsigned i = 0; i < p.vgrf_sizes.size(); i++)
      if (p.vgrf_sizes[i] > MAX_VGRF_SIZE)
         refuse("a VGRF larger than MAX_VGRF_SIZE (brw_ir.h) registers");
   for (const auto &in : p.insts) {
      // Mesa's copy propagation assumes a math instruction's destination is contiguous
      // (brw_fs_copy_propagation.cpp, can_take_stride asserts it); its front end only
      // emits math into whole VGRFs.
      const OpInfo *info = op_by_name(in.op);
      bool math = info && info->op >= SHADER_OPCODE_RCP && info->op <= SHADER_OPCODE_COS;
      if (math && in.has_dst && in.dst.stride != 1)
         refuse("line " + std::to_string(in.line) + ": a math instruction with a strided destination");
      // Mesa's front end folds an ADD of two constants in NIR; opt_algebraic (brw_fs.cpp)
      // folds what is left assuming float and asserts it.
      if (in.op == "add" && in.srcs.size() == 2 && in.srcs[0].file == eu::File::Imm &&
          in.srcs[1].file == eu::File::Imm && in.srcs[0].type != eu::Type::F)
         refuse("line " + std::to_string(in.line) + ": a non-float ADD of two immediates");
      // "Full mixed-type saturates don't happen" (brw_fs.cpp, opt_algebraic, which asserts
      // it when folding a saturating MOV of an immediate).
      if (in.op == "mov" && in.saturate && in.srcs.size() == 1 && in.srcs[0].file == eu::File::Imm &&
          in.srcs[0].type != in.dst.type)
         refuse("line " + std::to_string(in.line) + ": a saturating MOV of an immediate of another type");
      std::vector<eu::Operand> ops = in.srcs;
      if (in.has_dst)
         ops.push_back(in.dst);
      for (const auto &o : ops) {
         bool q = o.type == eu::Type::Q || o.type == eu::Type::UQ;
         if ((q && !devinfo->has_64bit_int) || (o.type == eu::Type::DF && !devinfo->has_64bit_float))
            refuse("line " + std::to_string(in.line) + ": 64-bit type " + eu::type_name(o.type) +
                   " on " + p.target + ", which Mesa lowers before the backend");
      }
   }
   refuse_nomask_reads_in_control_flow(p);
   brw_compiler *compiler = brw_compiler_create(ctx, devinfo);
   struct brw_wm_prog_key *key = rzalloc(ctx, struct brw_wm_prog_key);
   struct brw_wm_prog_data *prog_data = rzalloc(ctx, struct brw_wm_prog_data);
   nir_shader *shader = nir_shader_create(ctx, MESA_SHADER_FRAGMENT, NULL, NULL);
   cleanup.v = new shim_visitor(compiler, ctx, &key->base, prog_data, shader, p.dispatch);
   shim_visitor &v = *cleanup.v;

   for (unsigned size : p.vgrf_sizes)
      v.alloc.allocate(size);
   for (const auto &in : p.insts) {
      try {
         v.instructions.push_tail(build_inst(ctx, p, in));
      } catch (const Refusal &r) {
         throw Refusal("line " + std::to_string(in.line) + ": " + r.what());
      }
   }
   v.calculate_cfg();
   v.validate();
   Outcome out;
   if (budget >= 0) {
      LoopTrace trace;
      try {
         out.progress = opt_loop_budgeted(v, budget, trace);
      } catch (const BudgetSpent &) {
         out.progress = true;
      }
      out.text = "# mesa-steps: " + std::to_string(trace.steps) + "\n# mesa-last-pass: " +
                 (trace.last.empty() ? std::string("none") : trace.last) + "\n" +
                 (trace.finished ? "# mesa-loop-finished\n" : "") + print_program(p, v);
      return out;
   }
   out.progress = (*pass)(v);
   v.validate();
   out.text = print_program(p, v);
   return out;
}

}  // namespace shim
