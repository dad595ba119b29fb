/**
 * The server's rooms, bottom to top (docs/architecture.md): a room may import the rooms beneath
 * it, never one above. Read by .dependency-cruiser.cjs (the rules) and scripts/architecture.mjs
 * (the measures).
 */
const floor = '^src/server/(encryption|config)\\.ts$|^src/server/(db|storage|mail|common)/';
const top = '^src/server/(app|main|bootstrap|jobs|warm-up)\\.ts$|^src/server/cli/';
module.exports = {
  top,
  rooms: [
    ['shared', '^src/shared/'],
    ['floor', floor],
    ['plugins', '^src/server/plugins/'],
    ['live', '^src/server/live/'],
    ['modules', '^src/server/modules/'],
    ['top', top],
  ],
};
