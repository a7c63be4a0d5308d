/*
 * An objects folder listed as git lists it: its packs and its loose objects. The one
 * listing for the loose scan, the object reader (odb.c), the audit's object areas and
 * the push gate's quarantine, so that all of them read the objects git reads, no more
 * and no fewer. Library-internal (hidden).
 *
 * SPDX-License-Identifier: MIT
 *
 * Packs, as git's packfile.c finds them: every NAME.idx in pack/ whose NAME.pack is a
 * regular file (a link to one too), whatever NAME is. So a .pack without its .idx (git
 * writes the .idx last, and `git count-objects -v` calls a lone .pack garbage) and an
 * .idx without its .pack are not packs: git reads neither. Neither are git's temporary
 * files tmp_pack_* and tmp_idx_*, which have no suffix until they are renamed. A pair
 * named .tmp-<pid>-pack-<id>.pack/.idx, as git repack has pack-objects write them for
 * a moment, IS read by git (checked with git 2.39: `git cat-file --batch-all-objects`
 * lists its objects), so it is a pack here too.
 *
 * Loose objects, as git's loose object iteration finds them: in a folder of two hex
 * digits, the files whose names are the other hexsz - 2 digits, in either case (git
 * decodes them as mixed hex); any other name (git's tmp_obj_*, one of the wrong length)
 * is none, as git counts it garbage. Git opens the folders by their lowercase names
 * only ("%02x"); a folder named in uppercase is listed all the same, so that the loose
 * scan can report it: on a file system that does not tell case apart git reads it.
 *
 * Every listing is sorted by strcmp() (util/dir.h): what is found comes in an order that
 * does not depend on the file system.
 */
#ifndef HEXOID_PACK_OBJDIR_H
#define HEXOID_PACK_OBJDIR_H

#include <stddef.h>

#include "hexoid.h"
#include "util/dir.h"
#include "util/oidset.h"

/*
 * The packs of the objects folder `objects`: the paths of their .pack files,
 * objects/pack/NAME.pack, sorted. 0, or -1 with errno when the pack folder cannot be
 * read (ENOENT: there is none, which is no error to git) or memory runs out (ENOMEM);
 * packs is empty then.
 */
int hexoid_objdir_packs(const char *objects, struct hexoid_names *packs);

/* The .idx beside a NAME.pack path: malloc'ed, NULL when memory runs out. */
char *hexoid_objdir_idx_of(const char *pack);

/* The loose objects' folders of `objects`: names of two hex digits in either case,
 * sorted. 0, or -1 with errno when `objects` cannot be read or memory runs out. */
int hexoid_objdir_loose_folders(const char *objects, struct hexoid_names *folders);

/* The loose objects of one of those folders: the names of hexsz - 2 hex digits in either
 * case, sorted. 0, or -1 with errno as hexoid_objdir_loose_folders(). */
int hexoid_objdir_loose_names(const char *folder, size_t hexsz, struct hexoid_names *names);

/*
 * Every loose object's ID in `objects`, decoded from its folder's and file's names, added
 * to ids (not sorted). A folder that cannot be read adds nothing: whoever scans the
 * objects says so. 0, or -1 when memory runs out.
 */
int hexoid_objdir_loose_ids(const char *objects, enum hexoid_algo algo, struct hexoid_oidset *ids);

/*
 * Where an object went that was listed loose and is gone when read: git packs loose
 * objects (repack, gc) and only then deletes them, so the object is in a pack that is
 * there now, or in the one that replaced it. The indexes of the packs looked in are kept
 * mapped for the next object that vanishes (a repack takes many at once); a pack not
 * looked in yet is found by listing the pack folder again, as git does when an object
 * it looks for is in none of the packs it knows (packfile.c, reprepare_packed_git()).
 * Zero it to start; hexoid_objdir_packed_free() when done.
 */
struct hexoid_objdir_pidx;  /* one pack's index, mapped (objdir.c) */
struct hexoid_objdir_packed {
	struct hexoid_objdir_pidx *v;
	size_t n, cap;
};

/* Whether a pack of `objects` holds oid: 1 (with the .pack's path in *pack when asked,
 * valid until the free), 0 in none of them, -1 when memory ran out. */
int hexoid_objdir_packed_find(struct hexoid_objdir_packed *p, const char *objects,
			      enum hexoid_algo algo, const unsigned char *oid, const char **pack);
void hexoid_objdir_packed_free(struct hexoid_objdir_packed *p);

#endif
