export { describeContents, describeDataDir } from './data-dir.js';
export { exportDataDir, NothingToExportError } from './export.js';
export { ImportRefusedError, importArchive } from './import.js';
export { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveRefusedError, type Manifest } from './manifest.js';
export { takeSnapshot } from './snapshot.js';
export { manifestOf, writeArchive, writeArchiveFile } from './write.js';
