// eufuzz-mesa-shim: runs one of Mesa 22.3's brw passes on a `.eu` program.
//
//   eufuzz-mesa-shim --list                 the pass names
//   eufuzz-mesa-shim --pass NAME FILE.eu    the result on stdout; a refusal on stderr, exit 3
//   eufuzz-mesa-shim --serve                framed requests on stdin, replies on stdout:
//
//     request: "run PASS LEN\n" then LEN bytes of `.eu`
//     reply:   "ok PROGRESS LEN\n" then LEN bytes of `.eu` (PROGRESS is 0 or 1)
//              "refused LEN\n" then LEN bytes: the one-line reason
//
// A Mesa assertion or crash ends the process; eufuzz reads that as a failure of the pass.

#include "eu.h"
#include "mesa.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace {

int usage()
{
   fprintf(stderr, "usage: eufuzz-mesa-shim --list | --pass NAME FILE.eu | --serve\n");
   return 2;
}

bool write_all(int fd, const std::string &s)
{
   size_t done = 0;
   while (done < s.size()) {
      ssize_t n = write(fd, s.data() + done, s.size() - done);
      if (n <= 0)
         return false;
      done += (size_t)n;
   }
   return true;
}

/// The protocol loop. Replies go to a private copy of stdout; fd 1 itself is pointed at
/// stderr so that anything Mesa prints cannot corrupt a frame.
int serve()
{
   int out = dup(1);
   if (out < 0 || dup2(2, 1) < 0)
      return 1;
   std::string header;
   while (std::getline(std::cin, header)) {
      std::istringstream hs(header);
      std::string verb, pass;
      size_t len = 0;
      if (!(hs >> verb >> pass >> len) || verb != "run") {
         fprintf(stderr, "eufuzz-mesa-shim: bad request header '%s'\n", header.c_str());
         return 2;
      }
      std::string body(len, '\0');
      if (!std::cin.read(&body[0], (std::streamsize)len))
         return 2;
      std::string reply;
      try {
         shim::Outcome o = shim::run(eu::parse(body), pass);
         reply = "ok " + std::to_string(o.progress ? 1 : 0) + " " + std::to_string(o.text.size()) +
                 "\n" + o.text;
      } catch (const eu::Refusal &r) {
         std::string why = r.what();
         reply = "refused " + std::to_string(why.size()) + "\n" + why;
      }
      if (!write_all(out, reply))
         return 1;
   }
   return 0;
}

}  // namespace

int main(int argc, char **argv)
{
   if (argc == 2 && !strcmp(argv[1], "--list")) {
      fputs(shim::pass_names().c_str(), stdout);
      return 0;
   }
   if (argc == 2 && !strcmp(argv[1], "--serve"))
      return serve();
   if (argc != 4 || strcmp(argv[1], "--pass"))
      return usage();
   std::ifstream f(argv[3]);
   if (!f) {
      fprintf(stderr, "eufuzz-mesa-shim: cannot read %s\n", argv[3]);
      return 2;
   }
   std::stringstream text;
   text << f.rdbuf();
   try {
      shim::Outcome o = shim::run(eu::parse(text.str()), argv[2]);
      fputs(o.text.c_str(), stdout);
      fprintf(stderr, "progress: %d\n", o.progress ? 1 : 0);
      return 0;
   } catch (const eu::Refusal &r) {
      fprintf(stderr, "refused: %s\n", r.what());
      return 3;
   }
}
