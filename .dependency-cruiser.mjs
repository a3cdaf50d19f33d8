// The layers of src/ (docs/architecture.md, "Layers"), checked by `npm run lint:layers`
// (dependency-cruiser; 17.x, as 18.x does not run on Node 20). Lowest first: a folder may
// import the folders of the layers below its own and the folders listed before it in its own
// layer, nothing else, so no two folders import each other and an import that runs back up
// fails the lint naming the rule it breaks. Type-only imports count like any other.

/** @type {readonly { name: string; folders: readonly string[] }[]} */
export const LAYERS = [
  // Import nothing of src/: the settings and their readers, the loop's event vocabulary, help()'s board.
  { name: 'leaves', folders: ['settings', 'events', 'status'] },
  // The settings read whole, and the redacting log.
  { name: 'readers', folders: ['config', 'log'] },
  // Time and cancellation, the daemon's API, passable encoding, the party slots.
  { name: 'base', folders: ['lifecycle', 'daemon', 'encoding', 'peers'] },
  // Messages, tool records (schemas, decoding, the FaeTool registry), the conversation,
  // reply formats, usage ledgers and the prompt's words.
  { name: 'records', folders: ['mail', 'agent-tools', 'history', 'reply', 'usage', 'prompt'] },
  // The model-and-tools loop and the policy's seam; neither knows the other.
  { name: 'loop-and-policy', folders: ['loop', 'policy'] },
  // What an agent can do; each may use those listed before it.
  {
    name: 'capabilities',
    folders: [
      'schedule',
      'asks',
      'recall',
      'toolbox',
      'parties',
      'builtin-tools',
      'helpers',
      'progress',
      'memory',
      'model',
      'channels',
    ],
  },
  // Mail in, turns served, outcomes told.
  { name: 'serving', folders: ['serving'] },
];

const anyOf = folders => `^src/(${folders.join('|')})/`;

/** Per layer: no import of a layer above it, nor of the entry (src/run-agent.ts). */
const upward = LAYERS.map(({ name, folders }, index) => ({
  name: `no-upward-import-from-${name}`,
  comment: `A folder of the "${name}" layer imports only folders of its layer or below (docs/architecture.md, "Layers").`,
  severity: 'error',
  from: { path: anyOf(folders) },
  to: {
    path: [
      ...(index + 1 < LAYERS.length
        ? [anyOf(LAYERS.slice(index + 1).flatMap(l => l.folders))]
        : []),
      '^src/[^/]+$',
    ],
  },
}));

/** Per folder with later peers in its layer: no import of them (peers import down their list). */
const peerOrder = LAYERS.flatMap(({ name, folders }) =>
  folders.slice(0, -1).map((folder, index) => ({
    name: `no-later-peer-import-from-${folder}`,
    comment: `In the "${name}" layer, ${folder} imports only the peers listed before it (docs/architecture.md, "Layers").`,
    severity: 'error',
    from: { path: anyOf([folder]) },
    to: { path: anyOf(folders.slice(index + 1)) },
  })),
);

/** Every folder of src/ is in a layer: a new folder is placed before it imports or is imported. */
const placed = [anyOf(LAYERS.flatMap(l => l.folders)), '^src/[^/]+$'];
const unplaced = [
  {
    name: 'folder-in-a-layer',
    comment:
      'Each folder of src/ is named in LAYERS (.dependency-cruiser.mjs) and docs/architecture.md.',
    severity: 'error',
    from: { path: '^src/', pathNot: placed },
    to: {},
  },
  {
    name: 'import-of-a-folder-in-a-layer',
    comment:
      'Each folder of src/ is named in LAYERS (.dependency-cruiser.mjs) and docs/architecture.md.',
    severity: 'error',
    from: {},
    to: { path: '^src/', pathNot: placed },
  },
];

export default {
  forbidden: [
    ...upward,
    ...peerOrder,
    ...unplaced,
    {
      name: 'no-folder-cycle',
      comment:
        'No folder of src/ reaches itself through others (the layers make it so; this says it plainly).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycle',
      comment:
        'No module reaches itself through others, here or in providers/, tools/, setup/: what two modules need of each other lives in a third both import (docs/architecture.md, "Layers").',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
  },
};
