import type { TablePreview } from '../../../../engine/contract/tablePreview.js';

/** A table tool's result in the activity feed: the first rows, header with types, and how many more. */
export function ActivityTable({ table }: { table: TablePreview }) {
  return (
    <div className="activity-table-wrap">
      <table className="activity-table" data-testid="activity-table">
        <thead>
          <tr>
            {table.columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {table.more > 0 && <p className="activity-table-more muted">{table.more === 1 ? '1 more row' : `${table.more.toLocaleString('en-US')} more rows`}</p>}
    </div>
  );
}
