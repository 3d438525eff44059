// The check set for "offline answers equal live ones": every eval and query of the seed's examples
// (the seed document's usage examples, as README.md and docs/exile-snapshot.md quote them), in
// ExileApi's own member names where the 2020 source differs (Position → Pos, Distance →
// DistancePlayer), plus the values around them whose forms the seed leaves open (a dictionary at
// and past the depth limit, an enum, a struct). MONSTER stands for the index of a monster entity.
export const CHECK_EVALS: Array<[string, number]> = [
  ['Player.Pos', 0],
  ['Player.Pos', 2],
  ['Player.GetComponent<Life>().CurHP', 2],
  ['Player.Components', 0],
  ['Player.Components', 1],
  ['Player.Components', 2],
  ['Player.Components["Life"]', 1],
  ['Player', 1],
  ['Entities', 0],
  ['Entities', 1],
  ['Entities[MONSTER]', 1],
  ['Entities[MONSTER].Type', 0],
  ['Entities[MONSTER].Components["Positioned"].GridPos', 1],
  ['Entities[MONSTER].GetComponent<Life>().Buffs', 2],
  ['Player.Buffs', 1],
  ['Player.Components["Life"].Owner.Id', 0],
  ['IngameState.Data.LocalPlayer.RenderName', 0],
  ['GameController.Area.CurrentArea.DisplayName', 0],
  ['GameController.Game.IngameState.Camera.Position', 1],
  ['Camera', 1],
];

export const CHECK_QUERIES: Array<Record<string, unknown>> = [
  { from: 'Entities', where: 'DistancePlayer < 50 && IsHostile', select: 'new { Id, RenderName }', orderBy: 'DistancePlayer' },
  { from: 'Entities', select: 'Type' },
  { from: 'Entities', where: 'IsAlive', select: 'new { Id, RenderName, DistancePlayer }', orderBy: 'Id desc', take: 5 },
  { from: 'Entities', where: 'IsHostile', select: 'new { Id, Type, Pos }', take: 10 },
];
