/**
 * The stale-id check's row words (element-ids.ts itemWords, element-records.ts changedPlaces): a place of a list item
 * read with more or fewer words than before is compared by its start or its end, not left out.
 */
import {buildScreenModel, recordMismatch, recordOf, type ScreenElement} from '@arc-cli/core'
import {expect} from 'chai'

import {capture, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'

/** An inbox: each row a sender (with a resource-id: the row's label), lines of no resource-id, a delete button. */
const inbox = (rows: string[][]): NodeSpec[] => [
  {
    pkg: 'com.example.mail',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        res: 'com.example.mail:id/list',
        attrs: {scrollable: 'true'},
        bounds: [0, 200, 1080, 2200],
        children: rows.map(([sender, ...lines], i): NodeSpec => {
          const top = 200 + i * 200
          return {
            cls: 'android.widget.LinearLayout',
            attrs: {clickable: 'true'},
            bounds: [0, top, 1080, top + 200],
            children: [
              {
                cls: 'android.widget.TextView',
                res: 'com.example.mail:id/sender',
                text: sender,
                bounds: [40, top, 900, top + 50],
              },
              ...lines.map((line, k): NodeSpec => ({
                cls: 'android.widget.TextView',
                text: line,
                bounds: [40, top + 50 + k * 40, 900, top + 90 + k * 40],
              })),
              {
                cls: 'android.widget.ImageButton',
                res: 'com.example.mail:id/delete',
                desc: 'Delete',
                attrs: {clickable: 'true'},
                bounds: [920, top + 40, 1040, top + 160],
              },
            ],
          }
        }),
      },
    ],
  },
]

/** The delete button of the second row. */
function secondDelete(rows: string[][]): ScreenElement {
  const model = buildScreenModel(capture(dumpXml(inbox(rows))))
  return model.elements.filter((e) => e.desc === 'Delete')[1] as ScreenElement
}

describe('row words: a place read with another number of words', () => {
  const read = secondDelete([
    ['Ada', 'Lunch?'],
    ['GitHub', 'PR merged'],
    ['Bob', 'Hi'],
  ])

  it('another mail of the same sender with one more line in its place is another row: the id is refused', () => {
    const reused = secondDelete([
      ['Ada', 'Lunch?'],
      ['GitHub', 'Invoice overdue', 'Attachment'],
      ['Bob', 'Hi'],
    ])
    // The premise: the delete button keeps its id (the row's label is its sender).
    expect(reused.id).to.equal(read.id)
    expect(recordMismatch(recordOf(read), recordOf(reused))).to.have.length(1)
    // And the reverse: read with two lines, one line now.
    expect(recordMismatch(recordOf(reused), recordOf(read))).to.have.length(1)
  })

  it('the same row with a line clipped at the list edge, or one more drawn, is the same row', () => {
    const whole = secondDelete([
      ['Ada', 'Lunch?'],
      ['GitHub', 'Yesterday', 'PR merged'],
      ['Bob', 'Hi'],
    ])
    const tail = secondDelete([
      ['Ada', 'Lunch?'],
      ['GitHub', 'PR merged', 'Attachment'],
      ['Bob', 'Hi'],
    ])
    expect(whole.id).to.equal(read.id)
    expect(recordMismatch(recordOf(read), recordOf(whole))).to.deep.equal([])
    expect(recordMismatch(recordOf(whole), recordOf(read))).to.deep.equal([])
    expect(recordMismatch(recordOf(read), recordOf(tail))).to.deep.equal([])
  })
})
