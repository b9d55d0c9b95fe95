/* Octavo's own publish: the bundled themes alone. */
#include "octavo_publish.h"

int main(int argc, char **argv) {
  return octavo_publish_main(argc, argv, NULL, 0, NULL);
}
