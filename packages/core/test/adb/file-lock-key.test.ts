import {expect} from 'chai'

import {fileLockKey} from '../../src/driver/adb/files.js'

describe('fileLockKey: the name of the lock an edit of a device path takes', () => {
  it('is one for every spelling of a name under shared storage, which a phone looks up without regard to case', () => {
    expect(fileLockKey('/storage/emulated/0/Download/Notes.txt')).to.equal(
      fileLockKey('/storage/emulated/0/DOWNLOAD/notes.TXT')
    )
    expect(fileLockKey('/sdcard/Notes.txt')).to.equal(fileLockKey('/sdcard/NOTES.txt'))
    expect(fileLockKey('/mnt/sdcard/Notes.txt')).to.equal(fileLockKey('/mnt/sdcard/notes.txt'))
    // Android 11+ casefold compares names NFD-normalized and case-folded: é is é, ß is SS.
    expect(fileLockKey('/storage/emulated/0/Caf\u00e9.txt')).to.equal(fileLockKey('/storage/emulated/0/CAFE\u0301.TXT'))
    expect(fileLockKey('/storage/1234-ABCD/Stra\u00dfe.txt')).to.equal(fileLockKey('/storage/1234-abcd/STRASSE.txt'))
  })

  it('tells case apart everywhere else (ext4 and f2fs without casefold)', () => {
    expect(fileLockKey('/data/local/tmp/Notes.txt')).to.not.equal(fileLockKey('/data/local/tmp/notes.txt'))
    expect(fileLockKey('/storageX/Notes.txt')).to.not.equal(fileLockKey('/storagex/notes.txt'))
    expect(fileLockKey('/data/local/tmp/Caf\u00e9')).to.not.equal(fileLockKey('/data/local/tmp/Cafe\u0301'))
  })
})
