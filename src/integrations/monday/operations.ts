/** create_item (the GraphQL documents here are validated against monday's schema in the tests). */
export const CREATE_ITEM = `mutation CreateItem($board: ID!, $name: String!, $group: String, $columns: JSON, $createLabels: Boolean) {
  create_item(board_id: $board, item_name: $name, group_id: $group, column_values: $columns, create_labels_if_missing: $createLabels) {
    id
    name
    url
  }
}`;

/** change_multiple_column_values on one item. */
export const CHANGE_COLUMN_VALUES = `mutation ChangeColumnValues($board: ID!, $item: ID!, $columns: JSON!, $createLabels: Boolean) {
  change_multiple_column_values(board_id: $board, item_id: $item, column_values: $columns, create_labels_if_missing: $createLabels) {
    id
    name
  }
}`;

/** create_update: an update (comment) on an item. */
export const CREATE_UPDATE = `mutation CreateUpdate($item: ID!, $body: String!) {
  create_update(item_id: $item, body: $body) {
    id
  }
}`;
